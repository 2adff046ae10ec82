"""The tool's error messages in Brazilian Portuguese: one table of the English templates the messages are
built from (the loader's "expected ..." and "found ..." phrases, the hints, the commands' input errors),
each beside its pt-BR form.

A message is made in English where it is detected (the English text is the record: tests, logs and the
``expected``/``found`` fields of problem JSON keep it byte for byte); :func:`translate` gives it in the
language the user asked for. A template is the English text with ``{name}`` where a value goes: the value
is carried over verbatim (a field path, a file name, a value the user wrote), or, written ``{name:t}``,
translated in turn (a phrase built from a smaller one). A text no template matches is left as it is.

Brazilian forms throughout: arquivo, registro, usuário, fato (not ficheiro, registo, utilizador, facto); European
Portuguese (``pt-PT``) reads them, but for the templates :data:`_PT_PT` writes in Portugal's words."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from pyhelpers.base import formats
from pyhelpers.base.lang import family, normalize

_PT: tuple[tuple[str, str], ...] = (
    # ---- the frame of a problem and of an error -------------------------------------------------------
    ("fix the fields above and run the command again", "corrija os campos acima e execute o comando novamente"),
    ("(document)", "(documento)"),
    ("(syntax)", "(sintaxe)"),
    ("(file)", "(arquivo)"),
    ("(body)", "(corpo)"),
    # ---- click's usage errors (the command line's syntax: an option, a choice, an argument) ---------------
    ("Usage: {usage}", "Uso: {usage}"),
    ("Try {command} for help.", "Tente {command} para ver a ajuda."),
    ("Error: {what:t}", "Erro: {what}"),
    ("Invalid value for {param}: {what:t}", "Valor inválido para {param}: {what}"),
    ("Invalid value: {what:t}", "Valor inválido: {what}"),
    ("{value} is not one of {choices}.", "{value} não é um dos valores {choices}."),
    ("{value} is not a valid integer.", "{value} não é um número inteiro válido."),
    ("{value} is not a valid float.", "{value} não é um número válido."),
    ("{value} is not a valid float range.", "{value} não é um número válido."),
    ("{value} is not a valid integer range.", "{value} não é um número inteiro válido."),
    ("{value} is not a valid boolean. Recognized values: {states}",
     "{value} não é um valor booleano válido. Valores reconhecidos: {states}"),
    ("{value} is not in the range {range}.", "{value} não está no intervalo {range}."),
    ("No such option {name}.", "A opção {name} não existe."),
    ("No such option {name}. Did you mean {possibility}?", "A opção {name} não existe. Você quis dizer {possibility}?"),
    ("No such option {name}. (Did you mean one of: {possibilities}?)",
     "A opção {name} não existe. (Você quis dizer uma destas: {possibilities}?)"),
    ("No such command {name}.", "O comando {name} não existe."),
    ("No such command {name}. Did you mean {possibility}?",
     "O comando {name} não existe. Você quis dizer {possibility}?"),
    ("No such command {name}. (Did you mean one of: {possibilities}?)",
     "O comando {name} não existe. (Você quis dizer um destes: {possibilities}?)"),
    ("Missing argument {name}.", "Falta o argumento {name}."),
    ("Missing option {name}.", "Falta a opção {name}."),
    ("Missing command.", "Falta o comando."),
    ("Option {name} requires an argument.", "A opção {name} exige um argumento."),
    ("Option {name} requires {n} arguments.", "A opção {name} exige {n} argumentos."),
    ("Option {name} does not take a value.", "A opção {name} não aceita um valor."),
    ("Got unexpected extra argument ({args})", "Argumento a mais, inesperado ({args})"),
    ("Got unexpected extra arguments ({args})", "Argumentos a mais, inesperados ({args})"),
    ("Path {name} does not exist.", "O caminho {name} não existe."),
    ("File {name} does not exist.", "O arquivo {name} não existe."),
    ("File {name} is a directory.", "O arquivo {name} é um diretório."),
    ("Directory {name} is a file.", "O diretório {name} é um arquivo."),
    ("Path {name} is not readable.", "O caminho {name} não pode ser lido."),
    ("File {name} is not readable.", "O arquivo {name} não pode ser lido."),
    ("{value} is not {choice}.", "{value} não é {choice}."),  # after the other "is not" ones: it would read them
    # ---- what was found ---------------------------------------------------------------------------------
    ("nothing", "nada"),
    ("none", "nenhum"),
    ("both", "ambos"),
    ("more", "mais"),
    ("none of them", "nenhum deles"),
    ("only one of them", "só um deles"),
    ("an empty list", "uma lista vazia"),
    ("a boolean", "um booleano"),
    ("a float", "um número de ponto flutuante"),
    ("a directory", "um diretório"),
    ("a folder", "uma pasta"),
    ("no such file", "arquivo inexistente"),
    ("no permission to read it", "sem permissão de leitura"),
    ("a larger file", "um arquivo maior"),
    ("undecodable bytes", "bytes que não são UTF-8"),
    ("an empty body", "um corpo vazio"),
    ("a recursive alias", "um alias recursivo"),
    ("deeper nesting", "um aninhamento mais profundo"),
    ("management ashore", "gestão em terra"),
    ("no gross", "nenhum valor bruto"),
    ("a terminal", "um terminal"),
    ("a list", "uma lista"),
    ("a map", "um mapa"),
    ("{kind:t} as a key", "{kind} como chave"),
    ("{key} repeated", "{key} repetida"),
    ("the tag {tag}", "a tag {tag}"),
    ("a number of {n} characters", "um número de {n} caracteres"),
    ("a number of about {n} digits", "um número de cerca de {n} dígitos"),
    ("{n} characters", "{n} caracteres"),
    ("more than {n} values", "mais de {n} valores"),
    ("{n} levels", "{n} níveis"),
    ("{n} item(s)", "{n} item(ns)"),
    ("the individual {id}", "a pessoa física {id}"),
    ("{id}, already in arrangement {other}", "{id}, já no arranjo {other}"),
    ("{id}, already income[{n}]", "{id}, já em income[{n}]"),
    ("{id}, already row {n}", "{id}, já na linha {n}"),
    ("{key}, the same {what:t} as {first}", "{key}, o mesmo {what} que {first}"),
    ("a tax of {state:t}", "um imposto de {state}"),
    ("no State given", "nenhum Estado informado"),
    ("{amount} beside excess_over_arm_length: unknown", "{amount} ao lado de excess_over_arm_length: unknown"),
    ("alternatives (one_of / between / changeable)", "alternativas (one_of / between / changeable)"),
    ("alternatives (one_of)", "alternativas (one_of)"),
    ("a range (between)", "um intervalo (between)"),
    ("values that may change (changeable)", "valores que podem mudar (changeable)"),
    ("`unknown` (a first or last day not known)", "`unknown` (um primeiro ou último dia não conhecido)"),
    # ---- what was expected: the scenario format's types --------------------------------------------------
    ("this required field", "este campo obrigatório"),
    ("no such field (check the spelling; see `treaty schema`)",
     "nenhum campo com esse nome (confira a grafia; veja `treaty schema`)"),
    ("a real date YYYY-MM-DD", "uma data real AAAA-MM-DD"),
    ("a date YYYY-MM-DD", "uma data AAAA-MM-DD"),
    ("a date YYYY-MM-DD without a time", "uma data AAAA-MM-DD sem hora"),
    ("true or false", "true ou false"),
    ("true, false or {values}", "true, false ou {values}"),
    ("one of {values:t}", "um de {values}"),
    ("a text that is not empty", "um texto não vazio"),
    ("an id without control characters", "um id sem caracteres de controle"),
    ("a number at least {n}", "um número maior ou igual a {n}"),
    ("a number at most {n}", "um número menor ou igual a {n}"),
    ("a two-letter State code such as br or pt", "um código de Estado de duas letras, como br ou pt"),
    ("a percentage between 0 and 100", "uma porcentagem entre 0 e 100"),
    ("a percentage between 0 and 100 written in digits, e.g. 24.9 or '25%'",
     "uma porcentagem entre 0 e 100 escrita em algarismos, por exemplo 24.9 ou '25%'"),
    ("a percentage with at most two decimals", "uma porcentagem com no máximo duas casas decimais"),
    ("an exact decimal amount", "um valor decimal exato"),
    ("an exact decimal rate", "uma taxa decimal exata"),
    ("an exact decimal written as a string, e.g. '{example}'",
     "um decimal exato escrito como texto, por exemplo '{example}'"),
    ("{kind:t} written with the digits 0-9 and at most one point, e.g. '{example}' (no exponent, no separators)",
     "{kind} escrito com os algarismos 0-9 e no máximo um ponto, por exemplo '{example}' (sem expoente, sem "
     "separadores)"),
    ("{kind:t} below 10^{n} (at most {m} digits before the point)",
     "{kind} abaixo de 10^{n} (no máximo {m} dígitos antes do ponto)"),
    ("{kind:t} with at most {n} decimals", "{kind} com no máximo {n} casas decimais"),
    ("a positive exchange rate", "uma taxa de câmbio positiva"),
    ("an outcome such as 'capped 10%', 'may tax', 'exempt' or 'exclusive'",
     "um resultado como 'capped 10%', 'may tax', 'exempt' ou 'exclusive'"),
    ("a rate exactly when the outcome is 'capped'", "uma alíquota exatamente quando o resultado é 'capped'"),
    ("each {what:t} once ({same:t})", "cada {what} uma só vez ({same})"),
    ("State", "Estado"),
    ("id", "id"),
    ("the case of a State code does not count", "maiúsculas e minúsculas de um código de Estado não contam"),
    ("spaces around an id do not count", "espaços em volta de um id não contam"),
    ("Input should be a valid string", "um texto"),
    ("Input should be a valid string, unable to parse raw data as a unicode string", "um texto Unicode válido"),
    ("Keys should be strings", "chaves que sejam textos"),
    ("Input should be a valid integer", "um número inteiro"),
    ("Input should be a valid integer, unable to parse string as an integer", "um número inteiro"),
    ("Input should be a valid integer, got a number with a fractional part", "um número inteiro"),
    ("Input should be a valid number", "um número"),
    ("Input should be a valid number, unable to parse string as a number", "um número"),
    ("Input should be a valid decimal", "um número decimal"),
    ("Input should be a valid list", "uma lista"),
    ("Input should be a valid dictionary", "um mapa (campo: valor)"),
    ("Input should be a valid dictionary or instance of {model}", "um mapa (campo: valor)"),
    ("Input should be a valid boolean", "true ou false"),
    ("Input should be a valid date", "uma data AAAA-MM-DD"),
    ("Input should be greater than {n}", "um valor maior que {n}"),
    ("Input should be greater than or equal to {n}", "um valor maior ou igual a {n}"),
    ("Input should be less than {n}", "um valor menor que {n}"),
    ("Input should be less than or equal to {n}", "um valor menor ou igual a {n}"),
    ("String should match pattern '{pattern}'", "um texto no formato '{pattern}'"),
    ("String should have at least {n} character", "um texto de pelo menos {n} caractere"),
    ("String should have at least {n} characters", "um texto de pelo menos {n} caracteres"),
    ("String should have at most {n} characters", "um texto de no máximo {n} caracteres"),
    ("List should have at least {n} item after validation, not {m}",
     "uma lista de pelo menos {n} item após a validação, não {m}"),
    ("List should have at least {n} items after validation, not {m}",
     "uma lista de pelo menos {n} itens após a validação, não {m}"),
    # ---- the file and the YAML --------------------------------------------------------------------------
    ("an existing {what:t} file", "um arquivo de {what} existente"),
    ("a readable {what:t} file", "um arquivo de {what} legível"),
    ("a {what:t} file of at most {n} bytes", "um arquivo de {what} de no máximo {n} bytes"),
    ("scenario", "cenário"),
    ("ledger", "razão (ledger)"),
    ("context", "contexto"),
    ("UTF-8 text", "texto UTF-8"),
    ("well-formed YAML", "YAML bem formado"),
    # ---- the YAML parser's problems (PyYAML's words), said as what was found -------------------------
    ("expected the node content, but found {token}", "{token} onde se esperava o conteúdo de um nó (um valor)"),
    ("expected {what:t}, but found {token}", "{token} onde se esperava {what}"),
    ("expected {what:t}, but got {token}", "{token} onde se esperava {what}"),
    ("mapping values are not allowed here", "um ':' onde não cabe um par chave: valor (recuo ou aspas?)"),
    ("could not find expected ':'", "uma chave sem o ':' esperado"),
    ("found character {char} that cannot start any token", "o caractere {char}, que não pode iniciar nenhum elemento"),
    ("found unexpected end of stream", "o fim do documento antes do esperado (aspas ou colchetes não fechados?)"),
    ("found undefined alias {alias}", "o alias indefinido {alias}"),
    ("found unexpected ':'", "um ':' inesperado"),
    ("found unknown escape character {char}", "o caractere de escape desconhecido {char}"),
    ("but found another document", "outro documento (esperado um só)"),
    ("alphabetic or numeric character", "uma letra ou um algarismo"),
    ("a comment or a line break", "um comentário ou uma quebra de linha"),
    ("a text of at most {n} characters", "um texto de no máximo {n} caracteres"),
    ("aliases that do not contain themselves", "aliases que não contenham a si mesmos"),
    ("at most {n} values and {m} levels of nesting once the aliases are expanded",
     "no máximo {n} valores e {m} níveis de aninhamento depois de expandidos os aliases"),
    ("at most {n} aliases (*name)", "no máximo {n} aliases (*nome)"),
    ("at most {n} levels of nesting", "no máximo {n} níveis de aninhamento"),
    ("plain YAML without tags", "YAML simples, sem tags"),
    ("a number of at most {n} characters", "um número de no máximo {n} caracteres"),
    ("a key that is a name, an id or a State", "uma chave que seja um nome, um id ou um Estado"),
    ("no YAML merge key (<<): write each field out", "nenhuma chave de mesclagem YAML (<<): escreva cada campo"),
    ("each key once", "cada chave uma só vez"),
    ("a mapping with name, treaty, persons, ...", "um mapa com name, treaty, persons, ..."),
    ("the scenario lists {listed:t}: split it, or give the payments as a ledger to `treaty batch`",
     "o cenário lista {listed}: divida-o, ou passe os pagamentos como um razão (ledger) a `treaty batch`"),
    ("{n} income items", "{n} itens de rendimento"),
    ("{n} persons", "{n} pessoas"),
    ("split it, or give the payments as a ledger to `treaty batch`",
     "divida-o, ou passe os pagamentos como um razão (ledger) a `treaty batch`"),
    ("mapping values are not allowed here", "valores de mapa não são permitidos aqui"),
    ("could not find expected ':'", "não foi encontrado o ':' esperado"),
    ("found character '\\t' that cannot start any token", "um caractere de tabulação ('\\t') que não pode iniciar "
     "nenhum token"),
    ("found unexpected end of stream", "o fim inesperado do texto"),
    ("expected <block end>, but found '{token}'", "<fim de bloco> esperado, mas encontrado '{token}'"),
    ("expected ',' or ']', but got '{token}'", "',' ou ']' esperado, mas encontrado '{token}'"),
    ("expected ',' or '}}', but got '{token}'", "',' ou '}}' esperado, mas encontrado '{token}'"),
    ("found undefined alias '{name}'", "o alias indefinido '{name}'"),
    ("special characters are not allowed", "caracteres especiais não são permitidos"),
    ("{problem:t} (the character U+{code})", "{problem} (o caractere U+{code})"),
    # ---- limits and alternatives ------------------------------------------------------------------------
    ("at most {n} income items", "no máximo {n} itens de rendimento"),
    ("at most {n} persons", "no máximo {n} pessoas"),
    ("split the scenario, or give the payments as a ledger to `treaty batch`, which decides any number of rows",
     "divida o cenário, ou passe os pagamentos como um razão (ledger) a `treaty batch`, que decide qualquer "
     "número de linhas"),
    ("split the scenario into groups of the persons each item involves (its parties, their holders and places)",
     "divida o cenário em grupos das pessoas que cada item envolve (suas partes, seus titulares e "
     "estabelecimentos)"),
    ("a date, or unknown with the record's other end given as a date",
     "uma data, ou unknown com a outra ponta do registro informada como data"),
    ("a list of at least two alternatives", "uma lista de pelo menos duas alternativas"),
    ("at most {n} alternatives", "no máximo {n} alternativas"),
    ("distinct alternatives", "alternativas distintas"),
    ("[LOW, HIGH]: two integers or two dates", "[LOW, HIGH]: dois inteiros ou duas datas"),
    ("two integers or two dates, LOW not after HIGH, at most {n} values",
     "dois inteiros ou duas datas, LOW não depois de HIGH, no máximo {n} valores"),
    ("a list of the values it may change to, or true", "uma lista dos valores para os quais pode mudar, ou true"),
    ("distinct values other than the stated one", "valores distintos, diferentes do informado"),
    ("at most {n} combinations of the unknown facts' alternatives",
     "no máximo {n} combinações das alternativas dos fatos desconhecidos"),
    ("at most {n} combinations of the unknown facts' values",
     "no máximo {n} combinações dos valores dos fatos desconhecidos"),
    ("{n} ({counts}); a date given as unknown counts the days the rules can tell apart",
     "{n} ({counts}); uma data informada como unknown conta os dias que as regras distinguem"),
    ("give one of the dates as a range (between: [FIRST, LAST]) or a value, or check the records in separate "
     "scenarios",
     "informe uma das datas como intervalo (between: [FIRST, LAST]) ou como valor, ou verifique os registros em "
     "cenários separados"),
    ("{source}: the alternatives of the open facts fall under different versions of an amended article; check "
     "each version's dates in a separate scenario",
     "{source}: as alternativas dos fatos em aberto caem em versões diferentes de um artigo alterado; verifique "
     "as datas de cada versão em um cenário separado"),
    ("{source}: no alternatives can be listed for the facts marked changeable: give them as {{value: X, "
     "changeable: [A, B]}}",
     "{source}: nenhuma alternativa pode ser listada para os fatos marcados como changeable: informe-os como "
     "{{value: X, changeable: [A, B]}}"),
    ("narrow the alternatives or split the scenario", "reduza as alternativas ou divida o cenário"),
    ("a context without income items (the ledger's rows are the items)",
     "um contexto sem itens de rendimento (as linhas do razão são os itens)"),
    ("a plain value in a batch context", "um valor simples em um contexto de lote"),
    ("check a scenario with alternatives with `treaty check`", "verifique um cenário com alternativas com "
     "`treaty check`"),
    ("give the day (each row is decided with the context's facts as given), or check the scenario with the day "
     "open with `treaty check`, which answers over every day by the critical dates",
     "informe o dia (cada linha é decidida com os fatos do contexto como informados), ou verifique o cenário com "
     "o dia em aberto com `treaty check`, que responde sobre todos os dias pelas datas críticas"),
    # ---- references and consistency ---------------------------------------------------------------------
    ("did you mean {choice}?", "você quis dizer {choice}?"),
    ("known: {choices}", "conhecidos: {choices}"),
    ("a person", "uma pessoa"),
    ("an income item", "um item de rendimento"),
    ("a place of business", "um estabelecimento"),
    ("a place of business, or none", "um estabelecimento, ou none"),
    ("a question (questions:)", "uma pergunta (questions:)"),
    ("the id of a person", "o id de uma pessoa"),
    ("the id of another person", "o id de outra pessoa"),
    ("the id of a person other than the recipient", "o id de uma pessoa que não seja o beneficiário"),
    ("the id of another place of business", "o id de outro estabelecimento"),
    ("the id of a place of business", "o id de um estabelecimento"),
    ("a company or entity", "uma sociedade ou entidade"),
    ("a date on or after from ({day})", "uma data igual ou posterior a from ({day})"),
    ("a date on or after employment_from ({day})", "uma data igual ou posterior a employment_from ({day})"),
    ("a date on or before the item's date ({day})", "uma data igual ou anterior à data do item ({day})"),
    ("at least one of capital, votes, value, profits", "pelo menos um de capital, votes, value, profits"),
    ("a date after holdings[{n}] ends (one record per period: the holder's total interest)",
     "uma data posterior ao fim de holdings[{n}] (um registro por período: a participação total do titular)"),
    ("an item in at most one arrangement", "um item em no máximo um arranjo"),
    ("ownership without cycles", "participações sem ciclos"),
    ("an id not used by another income item", "um id não usado por outro item de rendimento"),
    ("an id not used by an item or another question", "um id não usado por um item ou outra pergunta"),
    ("dividend details only on an item of type dividend", "detalhes de dividend só em um item do tipo dividend"),
    ("{block} details only on an item of type {types:t}", "detalhes de {block} só em um item do tipo {types}"),
    ("{block} details only on items of type {types}", "detalhes de {block} só em itens do tipo {types}"),
    ("an amount in the currency of the item's gross (gross is needed)",
     "um valor na moeda do valor bruto do item (gross é necessário)"),
    ("the amount alone (it settles that there is an excess over it), or excess_over_arm_length true or false "
     "agreeing with it",
     "só o valor (ele determina que há excesso sobre ele), ou excess_over_arm_length true ou false de acordo "
     "com ele"),
    ("the amount alone (it settles that there is no excess over it), or excess_over_arm_length true or false "
     "agreeing with it",
     "só o valor (ele determina que não há excesso sobre ele), ou excess_over_arm_length true ou false de acordo "
     "com ele"),
    ("an amount below the gross {gross} (excess_over_arm_length is {flag})",
     "um valor abaixo do bruto {gross} (excess_over_arm_length é {flag})"),
    ("an amount not below the gross {gross} (excess_over_arm_length is {flag})",
     "um valor não inferior ao bruto {gross} (excess_over_arm_length é {flag})"),
    ("management on board only for a ship", "gestão a bordo só para um navio"),
    ("port_of_registry only with management_on_board: true", "port_of_registry só com management_on_board: true"),
    ("the remitting place of business (required for branch_profits)",
     "o estabelecimento remetente (obrigatório para branch_profits)"),
    ("the State of a government (required for kind government)",
     "o Estado de um governo (obrigatório para kind government)"),
    ("either periods or from/until, not both", "ou periods ou from/until, não ambos"),
    ("agent facts only for kind agent", "fatos de agente só para kind agent"),
    ("at least one activity, or unknown", "pelo menos uma atividade, ou unknown"),
    ("immovable property details only on an item of type immovable_property",
     "detalhes de bens imóveis só em um item do tipo immovable_property"),
    ("business profits details only on business_profits (or immovable_property) items",
     "detalhes de lucros das empresas só em itens business_profits (ou immovable_property)"),
    ("an air transport consortium share only with mode aircraft (a ship operated in common is a pool or joint "
     "business: pool)",
     "uma participação em consórcio de transporte aéreo só com mode aircraft (um navio operado em comum é um "
     "pool ou negócio conjunto: pool)"),
    ("{kind} details (required for type {kind})", "detalhes de {kind} (obrigatórios para o tipo {kind})"),
    ("aboard: ship or aircraft when operator or operated_solely_within is given",
     "aboard: ship ou aircraft quando operator ou operated_solely_within é informado"),
    ("no exercised_in here: a {kind} item takes it from its own details",
     "nenhum exercised_in aqui: um item {kind} o obtém dos próprios detalhes"),
    ("a Contracting State of {treaty} ({states})", "um Estado Contratante de {treaty} ({states})"),
    ("a Contracting State of {treaty} ({states}): payments by them are government service",
     "um Estado Contratante de {treaty} ({states}): os pagamentos feitos por eles são função pública"),
    ("a Contracting State of {treaty}", "um Estado Contratante de {treaty}"),
    ("the first day of the employment (required for payment: employment)",
     "o primeiro dia do emprego (obrigatório para payment: employment)"),
    ("the State that levies a tax named other", "o Estado que cobra um imposto chamado other"),
    ("{state} (the State of {tax}) or nothing", "{state} (o Estado de {tax}) ou nada"),
    ("{attr} only for a tax named other", "{attr} só para um imposto chamado other"),
    ("federal only for a tax of {states:t}", "federal só para um imposto de {states}"),
    ("a federal State", "um Estado federal"),
    ("every relief amount in one currency", "todos os valores de alívio em uma só moeda"),
    ("the item in the relief currency (the gross amount is not in it)",
     "o item na moeda do alívio (o valor bruto não está nela)"),
    ("residence_tax_before_credit and residence_taxable_income together",
     "residence_tax_before_credit e residence_taxable_income juntos"),
    ("either residence_tax_on_income or the residence totals", "ou residence_tax_on_income ou os totais da residência"),
    ("the paying enterprise ({payer})", "a empresa pagadora ({payer})"),
    ("a place of business exactly for the ground permanent_establishment",
     "um estabelecimento exatamente para o fundamento permanent_establishment"),
    ("the State of the item's tax ({state})", "o Estado do imposto do item ({state})"),
    ("the item's gross amount (income[].gross) to check withholding against",
     "o valor bruto do item (income[].gross) para conferir a retenção"),
    ("either withheld or withheld_rate", "ou withheld ou withheld_rate"),
    ("the currency of gross ({currency})", "a moeda de gross ({currency})"),
    ("the State that withheld (the payer is not liable to tax in exactly one Contracting State, so it cannot be "
     "inferred)",
     "o Estado que reteve (o pagador não está sujeito a imposto em exatamente um Estado Contratante, então ele "
     "não pode ser deduzido)"),
    ("insurance facts only for kind agent", "fatos de seguro só para kind agent"),
    ("shipping_ancillary only on an item of type shipping_air_transport",
     "shipping_ancillary só em um item do tipo shipping_air_transport"),
    ("shares_alienated only on an item of type capital_gain", "shares_alienated só em um item do tipo capital_gain"),
    ("gain_arises_in only on an item of type capital_gain", "gain_arises_in só em um item do tipo capital_gain"),
    ("payment_for only on an item of type royalty or technical_services",
     "payment_for só em um item do tipo royalty ou technical_services"),
    ("the year the notice is delivered ({year}) under {provision}",
     "o ano em que o aviso é entregue ({year}) nos termos de {provision}"),
    ("fiscal_transparency only for a company or other_entity", "fiscal_transparency só para company ou other_entity"),
    ("entity_purpose only for a non-individual", "entity_purpose só para quem não é pessoa física"),
    ("a person of the scenario ({hint:t})", "uma pessoa do cenário ({hint})"),
    ("an entity or arrangement (company or other_entity) other than the recipient",
     "uma entidade ou arranjo (company ou other_entity) que não seja o beneficiário"),
    ("contract facts only for kind agent", "fatos de contrato só para kind agent"),
    ("both taxes in one currency", "os dois impostos em uma só moeda"),
    # ---- the commands' input errors ---------------------------------------------------------------------
    # queries (--why-not, --goal, treaty ask)
    ("query {q}: expected {expected:t}, found {found:t}; {hint:t}",
     "consulta {q}: esperado {expected}, encontrado {found}; {hint}"),
    ("query {q}: expected {expected:t}; {hint:t}", "consulta {q}: esperado {expected}; {hint}"),
    ("query {q}: expected {expected:t}, found {found:t}", "consulta {q}: esperado {expected}, encontrado {found}"),
    ("query {q} is not ASP atom syntax: {hint:t}", "a consulta {q} não está na sintaxe de átomo ASP: {hint}"),
    ("query {q}: {plain} reads as a subtraction; quote ids: {quoted}",
     "consulta {q}: {plain} é lido como uma subtração; ponha os ids entre aspas: {quoted}"),
    ("query {q}: {sig} is not a predicate of the vocabulary ({hint:t})",
     "consulta {q}: {sig} não é um predicado do vocabulário ({hint})"),
    ("query {q}: after the atom only comparisons are allowed, found {lit}",
     "consulta {q}: depois do átomo só são permitidas comparações, encontrado {lit}"),
    ("query {q}: {rest:t}", "consulta {q}: {rest}"),
    ("write an atom with quoted ids, e.g. {example}", "escreva um átomo com ids entre aspas, por exemplo {example}"),
    ("ASCII names, numbers and quoted ids", "nomes ASCII, números e ids entre aspas"),
    ("one atom and optional comparisons", "um átomo e comparações opcionais"),
    ("an atom first", "um átomo primeiro"),
    ("see the vocabulary in {a} and {b}", "veja o vocabulário em {a} e {b}"),
    # ledgers
    ("expected {expected:t}, found {found:t}", "esperado {expected}, encontrado {found}"),
    ("{subject}: expected the quoted cell of the row that begins on this line to close within {n} characters, "
     "found it still open {m} lines later ({err}): is a closing quote missing? (a quote inside a quoted cell is "
     "written twice)",
     "{subject}: esperado que a célula entre aspas da linha que começa nesta linha se fechasse em {n} caracteres, "
     "encontrada ainda aberta {m} linhas depois ({err}): falta uma aspa de fechamento? (uma aspa dentro de uma "
     "célula entre aspas é escrita duas vezes)"),
    ("{subject}: expected a closing quote (\") for a quoted cell of the row that begins on this line, found the end "
     "of the file {n} line(s) later: close the quote (a quote inside a quoted cell is written twice)",
     "{subject}: esperada uma aspa de fechamento (\") para uma célula entre aspas da linha que começa nesta linha, "
     "encontrado o fim do arquivo {n} linha(s) depois: feche a aspa (uma aspa dentro de uma célula entre aspas é "
     "escrita duas vezes)"),
    ("{subject}: the header: {rest:t}", "{subject}: o cabeçalho: {rest}"),
    ("a header row of column names", "uma linha de cabeçalho com os nomes das colunas"),
    ("column names of at most {n} characters", "nomes de coluna de no máximo {n} caracteres"),
    ("one of {n}", "um de {n}"),
    ("{value} with the byte(s) {bytes}, which are not UTF-8 (save the ledger as UTF-8)",
     "{value} com o(s) byte(s) {bytes}, que não são UTF-8 (salve o razão como UTF-8)"),
    ("text that can be written as UTF-8", "texto que possa ser escrito em UTF-8"),
    ("each column name once", "cada nome de coluna uma só vez"),
    ("{name} {n} times (columns {columns})", "{name} {n} vezes (colunas {columns})"),
    ("rename all but one (the cells of one would be lost)",
     "renomeie todas menos uma (as células de uma delas se perderiam)"),
    ("column names other than the result columns the batch adds ({names})",
     "nomes de coluna diferentes dos das colunas de resultado que o lote acrescenta ({names})"),
    ("{name} (column {k})", "{name} (coluna {k})"),
    ("rename it (the results would replace its cells)", "renomeie-a (os resultados substituiriam suas células)"),
    ("rename them (the results would replace their cells)",
     "renomeie-as (os resultados substituiriam suas células)"),
    ("at most {n} cells (as many as the header has columns)",
     "no máximo {n} células (tantas quantas as colunas do cabeçalho)"),
    ("{n} with {cells} beyond the last column", "{n}, com {cells} depois da última coluna"),
    ("is a comma in a cell that is not quoted? (quote such a cell)",
     "há uma vírgula numa célula sem aspas? (ponha essa célula entre aspas)"),
    ("at most one cell under the columns without a name in the header (columns {columns})",
     "no máximo uma célula sob as colunas sem nome no cabeçalho (colunas {columns})"),
    ("name them in the header", "dê um nome a elas no cabeçalho"),
    ("the key once in the JSON object", "a chave uma só vez no objeto JSON"),
    ("it {n} times (one value would be lost)", "ela {n} vezes (um valor se perderia)"),
    ("{value} with the lone surrogate(s) {escapes} (a \\u escape of half a UTF-16 surrogate pair, which is no "
     "character: write the character itself, or both halves of its pair)",
     "{value} com o(s) surrogate(s) isolado(s) {escapes} (um escape \\u de metade de um par surrogate UTF-16, que "
     "não é um caractere: escreva o próprio caractere, ou as duas metades do seu par)"),
    ("{value} with the byte(s) {bytes}, which are not UTF-8 (save the ledger as UTF-8), and the lone surrogate(s) "
     "{escapes} (a \\u escape of half a UTF-16 surrogate pair, which is no character: write the character itself, "
     "or both halves of its pair)",
     "{value} com o(s) byte(s) {bytes}, que não são UTF-8 (salve o razão como UTF-8), e o(s) surrogate(s) "
     "isolado(s) {escapes} (um escape \\u de metade de um par surrogate UTF-16, que não é um caractere: escreva o "
     "próprio caractere, ou as duas metades do seu par)"),
    ("a Parquet file", "um arquivo Parquet"),
    ("one pyarrow cannot read ({err})", "um que o pyarrow não consegue ler ({err})"),
    ("one pyarrow cannot read after row {n} ({err})", "um que o pyarrow não consegue ler depois da linha {n} ({err})"),
    ("No such file or directory", "arquivo ou diretório inexistente"),
    ("Permission denied", "permissão negada"),
    ("No space left on device", "sem espaço no dispositivo"),
    ("Is a directory", "é um diretório"),
    ("{source} row {n} ({where:t}): {problems:t}", "{source}, linha de dados {n} ({where}): {problems}"),
    ("{source} row {n}: {problems:t}", "{source}, linha de dados {n}: {problems}"),
    ("{subject}: expected {expected:t}, found {found:t}", "{subject}: esperado {expected}, encontrado {found}"),
    ("{subject}: expected {expected:t}, found {found:t}: {rest:t}",
     "{subject}: esperado {expected}, encontrado {found}: {rest}"),
    ("{subject}: expected {expected:t}", "{subject}: esperado {expected}"),
    ("{source} row {n} ({where:t})", "{source}, linha de dados {n} ({where})"),
    ("{source} row {n}", "{source}, linha de dados {n}"),
    ("line {n}, id {id}", "linha {n}, id {id}"),
    ("line {n}", "linha {n}"),
    ("treaty {treaty} is not known: expected one of {known}", "o tratado {treaty} não é conhecido: esperado um de "
     "{known}"),
    ("an id no other row has", "um id que nenhuma outra linha tenha"),
    ("the Contracting States of a treaty in the corpus (e.g. '{example}')",
     "os Estados Contratantes de um tratado do corpus (por exemplo '{example}')"),
    ("the row's treaty (a treaty or states column) or a treaty in the context",
     "o tratado da linha (uma coluna treaty ou states) ou um tratado no contexto"),
    ("a column path inside the item", "um caminho de coluna dentro do item"),
    ("a clash with another column", "um conflito com outra coluna"),
    ("an amount below 10^{n} (at most {m} digits before the decimal point)",
     "um valor abaixo de 10^{n} (no máximo {m} dígitos antes do ponto decimal)"),
    ("internal error while deciding this row ({what})", "erro interno ao decidir esta linha ({what})"),
    ("the other rows are not affected: please report this row",
     "as outras linhas não são afetadas: por favor relate esta linha"),
    ("a row with id {id}", "uma linha com o id {id}"),
    ("the id of an income item ({known})", "o id de um item de rendimento ({known})"),
    ("an article of {treaty} (see `treaty list`)", "um artigo de {treaty} (veja `treaty list`)"),
    ("a file ending in {formats}", "um arquivo terminado em {formats}"),
    ("a file name for the output", "um nome de arquivo para a saída"),
    ("a folder: choose another -o", "uma pasta: escolha outro -o"),
    ("an existing folder for the output", "uma pasta existente para a saída"),
    ("no folder {folder}: {rest}", "nenhuma pasta {folder}: {rest}"),
    ("-o FILE or stdout redirected to a file", "-o ARQUIVO ou a saída padrão redirecionada para um arquivo"),
    ("no PATHS given and no scenarios/ folder here", "nenhum PATHS informado e nenhuma pasta scenarios/ aqui"),
    ("{output}: cannot write the report: {why:t}", "{output}: não é possível gravar o relatório: {why}"),
    ("treaty serve needs {package}: pip install '{extra}' in a clone of treaty-logic",
     "treaty serve precisa de {package}: pip install '{extra}' em um clone do treaty-logic"),
    ("--format xlsx needs openpyxl: pip install '{extra}' in a clone of treaty-logic",
     "--format xlsx precisa de openpyxl: pip install '{extra}' em um clone do treaty-logic"),
    ("Parquet needs pyarrow: pip install '{extra}' in a clone of treaty-logic",
     "Parquet precisa de pyarrow: pip install '{extra}' em um clone do treaty-logic"),
    ("a scenario (YAML or JSON)", "um cenário (YAML ou JSON)"),
    ("a context line (a JSON object) and ledger rows", "uma linha de contexto (um objeto JSON) e linhas do razão"),
    ("a {what} of at most {n} bytes", "um {what} de no máximo {n} bytes"),
    ("{n} bytes", "{n} bytes"),
    ("the context does not fit the {treaty} rows: {problem:t}",
     "o contexto não serve para as linhas de {treaty}: {problem}"),
    ("{err:t}; nothing was written: fix the ledger and run the command again",
     "{err}; nada foi gravado: corrija o razão e execute o comando novamente"),
    ("internal error, please report it with the input that caused it ({what}; {var}=1 shows the traceback)",
     "erro interno, por favor relate-o com a entrada que o causou ({what}; {var}=1 mostra o traceback)"),
    ("internal error, please report it with the input that caused it ({what})",
     "erro interno, por favor relate-o com a entrada que o causou ({what})"),
    ("the rule files have a problem: {err}", "os arquivos de regras têm um problema: {err}"),
    # ---- the most general last: a list of two, a subject and what is wrong with it -------------------------
    ("the id of {what:t}", "o id de {what}"),
    ("{message:t}… (cut: {n} characters)", "{message}… (cortado: {n} caracteres)"),
    ("internal: no result", "interno: nenhum resultado"),
    ("{a} or {b}", "{a} ou {b}"),
    ("{a} and {b}", "{a} e {b}"),
    ("{ccy1} and {ccy2}", "{ccy1} e {ccy2}"),
    ("{text} ({hint:t})", "{text} ({hint})"),
    ("{subject}: {rest:t}", "{subject}: {rest}"),
)
"""(English template, pt-BR template), the more specific first where two could match one text."""


_PT_PT: dict[str, str] = {
    "rename it (the results would replace its cells)": "renomeie-a (os resultados substituiriam as suas células)",
    "rename them (the results would replace their cells)": "renomeie-as (os resultados substituiriam as suas células)",
    "give the day (each row is decided with the context's facts as given), or check the scenario with the day "
    "open with `treaty check`, which answers over every day by the critical dates":
        "indique o dia (cada linha é decidida com os factos do contexto como indicados), ou verifique o cenário com "
        "o dia em aberto com `treaty check`, que responde sobre todos os dias pelas datas críticas",
    '(file)':
        '(ficheiro)',
    'a float':
        'um número de vírgula flutuante',
    'no such file':
        'ficheiro inexistente',
    'a larger file':
        'um ficheiro maior',
    'the individual {id}':
        'a pessoa singular {id}',
    'no State given':
        'nenhum Estado indicado',
    'an id without control characters':
        'um id sem caracteres de controlo',
    "a rate exactly when the outcome is 'capped'":
        "uma taxa exatamente quando o resultado é 'capped'",
    'an existing {what:t} file':
        'um ficheiro de {what} existente',
    'a readable {what:t} file':
        'um ficheiro de {what} legível',
    'a {what:t} file of at most {n} bytes':
        'um ficheiro de {what} de no máximo {n} bytes',
    "a date, or unknown with the record's other end given as a date":
        'uma data, ou unknown com a outra ponta do registo indicada como data',
    'distinct values other than the stated one':
        'valores distintos, diferentes do indicado',
    "at most {n} combinations of the unknown facts' alternatives":
        'no máximo {n} combinações das alternativas dos factos desconhecidos',
    "at most {n} combinations of the unknown facts' values":
        'no máximo {n} combinações dos valores dos factos desconhecidos',
    '{n} ({counts}); a date given as unknown counts the days the rules can tell apart':
        '{n} ({counts}); uma data indicada como unknown conta os dias que as regras distinguem',
    'give one of the dates as a range (between: [FIRST, LAST]) or a value, or check the records in separate scenarios':
        'indique uma das datas como intervalo (between: [FIRST, LAST]) ou como valor, ou verifique os registos em '
        'cenários separados',
    "{source}: the alternatives of the open facts fall under different versions of an amended article; check each "
    "version's dates in a separate scenario":
        '{source}: as alternativas dos factos em aberto caem em versões diferentes de um artigo alterado; verifique '
        'as datas de cada versão num cenário separado',
    '{source}: no alternatives can be listed for the facts marked changeable: give them as {{value: X, changeable: '
    '[A, B]}}':
        '{source}: nenhuma alternativa pode ser listada para os factos marcados como changeable: indique-os como '
        '{{value: X, changeable: [A, B]}}',
    'No such option {name}. Did you mean {possibility}?':
        'A opção {name} não existe. Queria dizer {possibility}?',
    'No such option {name}. (Did you mean one of: {possibilities}?)':
        'A opção {name} não existe. (Queria dizer uma destas: {possibilities}?)',
    'No such command {name}. Did you mean {possibility}?':
        'O comando {name} não existe. Queria dizer {possibility}?',
    'No such command {name}. (Did you mean one of: {possibilities}?)':
        'O comando {name} não existe. (Queria dizer um destes: {possibilities}?)',
    'File {name} does not exist.':
        'O ficheiro {name} não existe.',
    'File {name} is a directory.':
        'O ficheiro {name} é um diretório.',
    'Directory {name} is a file.':
        'O diretório {name} é um ficheiro.',
    'File {name} is not readable.':
        'O ficheiro {name} não pode ser lido.',
    'did you mean {choice}?':
        'queria dizer {choice}?',
    "a date after holdings[{n}] ends (one record per period: the holder's total interest)":
        'uma data posterior ao fim de holdings[{n}] (um registo por período: a participação total do titular)',
    'agent facts only for kind agent':
        'factos de agente só para kind agent',
    'aboard: ship or aircraft when operator or operated_solely_within is given':
        'aboard: ship ou aircraft quando operator ou operated_solely_within é indicado',
    'insurance facts only for kind agent':
        'factos de seguro só para kind agent',
    'entity_purpose only for a non-individual':
        'entity_purpose só para quem não é pessoa singular',
    'contract facts only for kind agent':
        'factos de contrato só para kind agent',
    '{subject}: expected a closing quote (") for a quoted cell of the row that begins on this line, found the end of '
    'the file {n} line(s) later: close the quote (a quote inside a quoted cell is written twice)':
        '{subject}: esperada uma aspa de fecho (") para uma célula entre aspas da linha que começa nesta linha, '
        'encontrado o fim do ficheiro {n} linha(s) depois: feche a aspa (uma aspa dentro de uma célula entre aspas é '
        'escrita duas vezes)',
    'a Parquet file':
        'um ficheiro Parquet',
    'No such file or directory':
        'ficheiro ou diretório inexistente',
    'a file ending in {formats}':
        'um ficheiro terminado em {formats}',
    'a file name for the output':
        'um nome de ficheiro para a saída',
    '-o FILE or stdout redirected to a file':
        '-o FICHEIRO ou a saída padrão redirecionada para um ficheiro',
    'no PATHS given and no scenarios/ folder here':
        'nenhum PATHS indicado e nenhuma pasta scenarios/ aqui',
    'the rule files have a problem: {err}':
        'os ficheiros de regras têm um problema: {err}',
}
"""European Portuguese (``--lang pt-PT``) where it differs from :data:`_PT`, by English template: ficheiro,
registo, facto, indicar, pessoa singular (not arquivo, registro, fato, informar, pessoa física)."""

_FIELD = re.compile(r"\{(\w+)(:t)?\}")
_NUMBER = r"-?[0-9][0-9,.]*"
"""What ``{n}`` and ``{m}`` stand for: a number as the messages write it (``1,000``)."""
_GROUPED = re.compile(r"-?[0-9]{1,3}(?:,[0-9]{3})+")
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
"""A date as the messages write it (``2021-01-15``): a ``{day}`` of a template, or a date found."""
"""A whole number the English message grouped (a count or a limit: ``10,000``), regrouped in the language
of the translation; a number it wrote ungrouped (a row or line number, ``row 12``) is carried as it is."""
_VALUE = r"(?:(?!: ).)+?"
"""What a value carried verbatim stands for: a text without ": " (a value such as ``{id}`` never swallows the
subject of a message: ``a.csv row 7 (line 8): id: ..., found 'x', already row 1`` is a row's message)."""
_CURRENCY = r"[A-Z]{3}"
"""What ``{ccy...}`` stands for: a currency code."""
_INNER = frozenset({"{a} or {b}", "{a} and {b}"})
"""Templates of a list, read only inside a phrase (``one of a, b or c``), never as a whole text."""
_MESSAGE = frozenset({"{text} ({hint:t})", "{subject}: {rest:t}"})
"""Templates of a whole message, never read in a value found."""
_SPANNING = frozenset({"what", "why", "err", "rest"})
"""The verbatim values that may hold ": " (an exception's own message, the rest of a sentence)."""


@cache
def _compiled(european: bool = False) -> tuple[tuple[str, str, re.Pattern[str], frozenset[str], str, int], ...]:
    """Each template, its longest run of own words (a text without it cannot match), as a pattern (its
    values as groups), the names to translate in turn, its pt form (``european``: its pt-PT form where
    :data:`_PT_PT` has one) and the length of its own words (what it says, beyond its values)."""
    out = []
    for english, portuguese in _PT:
        portuguese = _PT_PT.get(english, portuguese) if european else portuguese
        pattern, names, translated, at = "", set[str](), set[str](), 0
        for m in _FIELD.finditer(english):
            pattern += re.escape(english[at:m.start()].replace("{{", "{").replace("}}", "}"))
            name = m.group(1)
            group = (_NUMBER if name in ("n", "m") else _CURRENCY if name.startswith("ccy")
                     else ".+?" if m.group(2) or name in _SPANNING else _VALUE)
            pattern += f"(?P={name})" if name in names else f"(?P<{name}>{group})"
            names.add(name)
            if m.group(2):
                translated.add(name)
            at = m.end()
        pattern += re.escape(english[at:].replace("{{", "{").replace("}}", "}"))
        own = len(_FIELD.sub("", english))
        anchor = max(_FIELD.split(english)[::3], key=len).replace("{{", "{").replace("}}", "}")
        out.append((english, anchor, re.compile(pattern, re.DOTALL), frozenset(translated), portuguese, own))
    return tuple(out)


def _fill(template: str, values: dict[str, str]) -> str:
    return _FIELD.sub(lambda m: values[m.group(1)], template).replace("{{", "{").replace("}}", "}")


@lru_cache(maxsize=4096)
def _match(text: str, inner: bool, value: bool = False, european: bool = False) -> tuple[str, int] | None:
    """``text`` in pt-BR by the first template it matches whole, and how much of it the templates knew (the
    length of their own words), or None. A list (``a or b``) is read only inside a phrase (``one of a or
    b``); a value found is matched by no template of a whole message. (Each field translated in turn is
    shorter than the text: the recursion ends.)"""
    for english, anchor, pattern, translated, portuguese, own in _compiled(european):
        if anchor not in text or (not inner and english in _INNER) or (value and english in _MESSAGE):
            continue
        m = pattern.fullmatch(text)
        if m is not None:
            values, known = {}, own
            for k, v in m.groupdict().items():
                if k in translated:
                    v, more = _phrase(v, True, False, european)
                    known += more
                elif k in ("n", "m") and _GROUPED.fullmatch(v):
                    v = formats.number(int(v.replace(",", "")), "pt-PT" if european else "pt")
                elif k == "day" and _ISO_DAY.fullmatch(v):  # a date the message gives: as the language writes it
                    v = formats.date(v, "pt-PT" if european else "pt")
                values[k] = v
            return _fill(portuguese, values), known
    return None


@lru_cache(maxsize=4096)
def _phrase(text: str, inner: bool = False, value: bool = False, european: bool = False) -> tuple[str, int]:
    """``text`` in pt-BR and how much of it the templates knew: line by line; a line as phrases joined by
    "; ", split where the templates know the most of it (the finer split of two that know as much); a
    phrase no template knows stays as it is."""
    if "\n" in text:
        lines = [_phrase(line, inner, value, european) for line in text.split("\n")]
        return "\n".join(t for t, _ in lines), sum(k for _, k in lines)
    parts = text.split("; ")
    if len(parts) == 1:
        return _match(text, inner, value, european) or (text, 0)
    # best[i]: (known, runs, translated) for parts[i:]
    best: list[tuple[int, int, list[str]]] = [(0, 0, []) for _ in range(len(parts) + 1)]
    for i in range(len(parts) - 1, -1, -1):
        choice: tuple[int, int, list[str]] | None = None
        for j in range(i + 1, len(parts) + 1):
            piece = "; ".join(parts[i:j])
            done = _match(piece, inner, value, european) or (piece, 0)
            known, runs, rest = best[j]
            cand = (known + done[1], runs + 1, [done[0], *rest])
            if choice is None or (cand[0], cand[1]) > (choice[0], choice[1]):
                choice = cand
        assert choice is not None
        best[i] = choice
    return "; ".join(best[0][2]), best[0][0]


def translate(text: str, lang: str, *, value: bool = False) -> str:
    """``text`` (an English message of the tool) in ``lang``: itself in English, pt-BR in ``pt``, and in ``pt-PT``
    the same with Portugal's words where they differ (:data:`_PT_PT`). ``value``: ``text`` is what a problem
    found (a phrase such as ``nothing``, or the user's value, kept as it is)."""
    if family(lang) == "en":
        return text
    if value and _GROUPED.fullmatch(text):  # a count the tool found (``1,200``); a value the user wrote is quoted
        return formats.number(int(text.replace(",", "")), lang)
    if value and _ISO_DAY.fullmatch(text):  # a date of the scenario, as read (a date it could not read is quoted)
        return formats.date(text, lang)
    return agreed(_phrase(text, value=value, european=normalize(lang) == "pt-PT")[0])


_FEMININE_EXPECTED = re.compile(r"\besperado(?= uma\b)")


def agreed(text: str) -> str:
    """Portuguese ``text`` with "esperado" agreeing with a feminine object: ``esperada uma data``."""
    return _FEMININE_EXPECTED.sub("esperada", text)


PARSER_WORDS = {"pt": "um erro de sintaxe, nas palavras do analisador de YAML: '{text}'"}
"""A problem of the YAML parser the templates do not know, in Portuguese: its own (English) words quoted."""


def parser_problem(text: str, lang: str) -> str:
    """What the YAML parser found (its problem, in PyYAML's English) in ``lang``: by the templates of its known
    problems, else in a Portuguese phrase that quotes the parser's words."""
    if family(lang) == "en":
        return text
    said, known = _phrase(text, value=True, european=normalize(lang) == "pt-PT")
    return said if known else PARSER_WORDS["pt"].format(text=text)


def english_templates() -> tuple[str, ...]:
    """The English templates (the tests build from them the words an English message is made of)."""
    return tuple(english for english, _ in _PT)
