"""The command line's help in Brazilian Portuguese, where click allows it.

Click has no translation of a command's help of its own; the help is text on the command objects. When the
environment asks for Portuguese (``TREATY_LANG=pt``, or else ``LC_ALL``/``LANG`` starting with ``pt``) the
summaries of the commands and the help of their options are the Portuguese ones of this table, keyed by
command name; otherwise English. Click's own words ("Usage:", "Options:", "Show this message and exit.") are
translated in the help it writes (:func:`frame`), and its usage pieces and metavars (``[OPTIONS]``, ``COMMAND
[ARGS]...``, ``FILES...``, ``INTEGER``) are put on the commands in Portuguese (:func:`metavars`), so the usage line
of a help and of a usage error is Portuguese too (audit 53b)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import click

from pyhelpers.base.lang import family, normalize

ENV = "TREATY_LANG"
"""The environment variable that chooses the language of the help (``en``, ``pt``, ``pt-BR``, ``pt-PT``)."""

_OPTIONS = {
    "--format": "formato da saída",
    "--lang": "idioma da saída legível (en, pt = pt-BR)",
    "--strict": "nenhum padrão substitui um fato de que a lei precisa: cada um é informado como ausente, não presumido",
    "--time-limit": "segundos de tempo de CPU (do processo e de seus filhos, não tempo decorrido: uma máquina "
    "carregada dá a mesma resposta) para o trabalho em um cenário, incluída a instanciação (check: por fatia de "
    "1.000 itens em um cenário maior, e outro tanto, um limite próprio, para as linhas decisivas); uma resposta "
    "cortada pelo limite começa com INCOMPLETO",
    "--chunk": "linhas decididas juntas em uma execução do clingo",
    "--jobs": "processos (padrão: as CPUs)",
    "--seed": "semente dos cenários aleatórios",
    "--save": "pasta onde gravar os cenários gerados em que os motores divergem",
    "--logic": "a pasta logic/ a medir (padrão: a base de regras instalada)",
    "--full": "a derivação inteira de cada conclusão, com os passos do motor (padrão: o argumento jurídico, "
    "dispositivo por dispositivo; com --why-not, a análise inteira em vez da primeira condição que falhou de cada "
    "regra)",
    "--why-not": "uma conclusão que não vale, por exemplo 'max_rate(\"div-2024\", 1000)'",
    "--context": "o cenário do grupo sem itens de rendimento (pessoas, participações, estabelecimentos ...)",
    "--output": "arquivo de resultados: .csv, .jsonl ou .parquet (escolhido pela extensão)",
}
"""The help of an option, the same in every command that has it (unless the command's table says otherwise)."""

HELP: dict[str, dict[str, str]] = {
    "": {"": "treaty-logic: os tratados tributários do Brasil como regras, com explicações citadas.",
         "--verbose": "diz o que é feito na saída de erro (o logger `pyhelpers`): -v os passos, -vv os detalhes",
         "--lang": "idioma da ajuda e, para cada comando que o tem, o padrão do seu --lang (en, pt = pt-BR)"},
    "check": {
        "": "Decide cada item de rendimento dos cenários FILES e compara com seus blocos expect:.",
        "--ask": "lista só os fatos que podem mudar um resultado (não informados, informados como unknown, ou um "
        "juízo a fazer), os mais decisivos primeiro",
    },
    "explain": {
        "": "Mostra o porquê: o argumento jurídico de cada conclusão, dispositivo por dispositivo, com os fatos "
        "decisivos (--full: a derivação inteira, citada, até os fatos do cenário).",
        "--item": "id do item de rendimento (padrão: todos os itens)",
    },
    "whatif": {
        "": "As menores mudanças nos fatos que FILE marca como changeable (ou, se nenhum estiver marcado, em "
        "qualquer fato que não seja uma identidade) que fazem GOAL valer, cada uma com seu resultado; ou por "
        "que nenhuma mudança consegue.",
        "--goal": "o que deve valer, por exemplo 'max_rate(\"div-2024\", R), R <= 1000' (alíquotas em pontos-base)",
        "--full": "quando nenhuma mudança faz o objetivo valer, a análise inteira do porquê, com os passos do motor "
        "(padrão: uma linha por regra que poderia tê-lo dado, com a condição que falhou e seus números)",
    },
    "batch": {
        "": "Decide cada linha (um item de rendimento cada) do razão de pagamentos LEDGER (.csv, .jsonl, "
        ".parquet) contra o contexto do grupo e grava as linhas com o resultado, o limite, a constatação sobre "
        "a retenção e os dispositivos.",
        "--workers": "processos",
        "--chunk": "linhas por bloco: a unidade de trabalho de um processo e de --resume  [padrão: 3000, escolhido "
        "por medição: pyhelpers.interfaces.batch.DEFAULT_CHUNK]",
        "--resume": "continua uma execução interrompida a partir de seu diário",
        "--bounds": "uma linha cujo resultado um fato ausente deixa indeterminado recebe seu limite, como treaty "
        "check o dá (o teto válido qualquer que seja o fato, nas colunas `outcome_*` e `cap`, em palavras, e "
        "em `cap_at_most_bp`): um treaty check por linha distinta assim (o padrão; --bounds é aceito e não muda nada); "
        "--no-bounds: essa linha é respondida em um conjunto de respostas, indeterminada e sem limite (mais rápido "
        "em razões com muitas linhas assim)",
        "--engine": "local: --workers processos nesta máquina; dask: partições em um cluster Dask (-o é então uma "
        "pasta terminada em .parquet ou .csv, com um manifesto)",
        "--scheduler": "com --engine dask: o endereço do escalonador (tcp://host:8786); padrão: um cluster local de "
        "--workers processos",
        "--master": "com --engine spark: o nó mestre do Spark (spark://host:7077, yarn, local[4]); padrão: o do "
        "spark-submit quando ele iniciou o treaty, senão local[--workers]",
        "--partition-rows": "com --engine dask: linhas por partição (uma tarefa, um arquivo de parte)",
        "--output": "arquivo de resultados: .csv, .jsonl ou .parquet (escolhido pela extensão); uma pasta com "
        "--engine dask",
        "--quiet": "sem barra de progresso e sem resumo",
    },
    "init": {
        "": "Um cenário comentado de TREATY com um item de rendimento de TYPE para começar: carrega e é "
        "verificado como está, e lista, comentado, cada fato que o item pode informar.",
        "--output": "o arquivo a gravar (padrão: a saída padrão); um arquivo existente nunca é substituído",
    },
    "explain-row": {
        "": "Executa de novo uma linha de um LEDGER com explicações (como `treaty explain` faz com um cenário): "
        "seu resultado, depois o argumento jurídico (--full: a derivação inteira).",
        "--context": "o cenário do grupo sem itens de rendimento",
        "--row": "o id da linha",
    },
    "list": {"": "Os tratados, seus artigos codificados e os artigos que faltam no corpus."},
    "show": {"": "O texto de um artigo (por exemplo `xx-yy 10` ou `xx-yy Protocol 9` de um tratado xx-yy) e as "
                 "regras que o codificam."},
    "schema": {"": "Imprime o JSON Schema do formato de cenário (para editores)."},
    "rates": {
        "": "Os limites do Estado da fonte por tipo de rendimento de cada TREATY (padrão: todos), calculados "
        "decidindo situações geradas dos dois lados de cada limiar que as regras testam.",
        "--format": "formato da saída (xlsx precisa do extra xlsx)",
        "--output": "grava neste arquivo (obrigatório para xlsx, a menos que a saída padrão seja redirecionada)",
        "--on": "o dia em que cada rendimento é pago e as respostas avaliadas (padrão: o das regras, no preâmbulo)",
    },
    "ask": {
        "": "Cada resposta a QUERY (por exemplo 'max_rate(\"div-2024\", R)') para o cenário FILE.",
        "--engine": "SWI-Prolog (dirigido ao objetivo, com tabelamento) ou clingo",
        "--why": "imprime a prova de cada resposta, citada, como `treaty explain` faz",
    },
    "crosscheck": {
        "": "Executa clingo e SWI-Prolog em cada cenário sob PATHS (padrão: scenarios/) e informa se concordam.",
        "--generated": "também N cenários aleatórios, muitos com fatos informados como unknown",
        "--chunk": "cenários por execução do motor",
    },
    "coverage": {
        "": "Regras disparadas e condições vistas verdadeiras e falsas pelos cenários sob PATHS.",
        "--fail-under": "sai com 1 quando o % de regras disparadas ou de condições cobertas fica abaixo destes",
        "--workers": "processos (padrão: as CPUs)",
    },
    "diff": {
        "": "Cada resposta dos cenários sob PATHS (padrão: scenarios/) que difere entre duas versões: uma revisão "
        "git do pacote inteiro e esta, ou duas bases de regras com esta camada Python.",
        "--base": "revisão git (o pacote inteiro: sua camada Python e suas regras), ou uma pasta logic/ (ou que "
        "contenha logic/: suas regras com esta camada Python)",
        "--head": "uma pasta logic/ com que comparar (padrão: este pacote)",
    },
    "mutate": {
        "": "Mutantes das regras (números ±1, comparações invertidas, condições retiradas, negações removidas), "
        "cada um executado nos cenários sob PATHS (padrão: scenarios/<tratado>/, ou scenarios/ para core).",
        "--treaty": "a pasta de logic/ a mutar (`core`: logic/core/, contra todos os cenários); obrigatório a menos "
        "que a base de regras tenha um só tratado",
        "--max": "uma amostra aleatória determinística de N mutantes (padrão: todos os mutantes)",
        "--seed": "semente da amostra",
        "--jobs": "processos",
        "--workers": "processos  [padrão: 1]",
        "--time-budget": "para depois desse tempo; os mutantes não executados são informados como pulados",
        "--probes": "cenários gerados que distinguem mutantes sobreviventes de suspeitos de equivalência",
        "--logic": "a pasta logic/ a mutar (padrão: a base de regras instalada)",
        "--save": "pasta onde gravar as sondas que distinguem um mutante sobrevivente (cenários candidatos)",
    },
    "report": {
        "": "Grava um relatório de decisão HTML autocontido para os cenários FILES: um resumo por item, cada "
        "derivação desenhada como um grafo com o texto do tratado de cada passo, os fatos e o recibo (uma pasta: "
        "cada arquivo *.yaml e *.yml dentro dela, ordenados pelo caminho).",
        "--output": "o arquivo HTML a gravar",
        "--why-not": "desenha também por que uma conclusão não vale, por exemplo 'max_rate(\"div-2024\", 1000)'",
    },
    "serve": {
        "": "Serve os comandos por HTTP (documento OpenAPI em /openapi.json): check, explain, why-not, whatif, "
        "report, batch, treaties, schema, rates, com o JSON de --format json. Precisa do extra: pip install "
        "'.[serve]' em um clone do treaty-logic.",
        "--host": "endereço em que escutar",
        "--port": "porta",
        "--workers": "processos, cada um com a base de regras carregada uma vez e decidindo uma requisição por vez",
        "--max-body": "maior cenário no corpo de uma requisição [padrão e máximo: 1.000.000, o limite do "
        "carregador]",
        "--max-batch-body": "maior corpo de /batch",
        "--time-limit": "maior time_limit que uma requisição check ou whatif pode pedir (segundos; também o padrão)",
        "--explain-time-limit": "segundos que uma requisição explain, why-not ou report pode levar antes de ser "
        "interrompida",
        "--access-log": "registra cada requisição",
    },
}
"""Command name → its summary (key ``""``) and its options' help (key: the option's long name); ``""`` as the
command name is the group itself."""


_OPTIONS_PT_PT = {
    "--strict": "nenhum valor por omissão substitui um facto de que a lei precisa: cada um é indicado como ausente, "
        "não presumido",
    "--full": "a derivação inteira de cada conclusão, com os passos do motor (por omissão: o argumento jurídico, "
        "dispositivo por dispositivo; com --why-not, a análise inteira em vez da primeira condição que falhou de cada "
        "regra)",
    "--jobs": "processos (por omissão: as CPUs)",
    "--time-limit": "segundos de tempo de CPU (do processo e dos seus filhos, não tempo decorrido: uma máquina "
        "carregada dá a mesma resposta) para o trabalho num cenário, incluída a instanciação (check: por fatia de "
        "1000 itens num cenário maior, e outro tanto, um limite próprio, para as linhas decisivas); uma resposta "
        "cortada pelo limite começa por INCOMPLETO",
    "--logic": "a pasta logic/ a medir (por omissão: a base de regras instalada)",
    "--output": "ficheiro de resultados: .csv, .jsonl ou .parquet (escolhido pela extensão)",
}
"""The help of an option in European Portuguese (``TREATY_LANG=pt-PT``), where it differs from :data:`_OPTIONS`."""

HELP_PT_PT: dict[str, dict[str, str]] = {
    "check": {
        "--ask": "lista só os factos que podem mudar um resultado (não indicados, indicados como unknown, ou um juízo "
            "a fazer), os mais decisivos primeiro",
    },
    "explain": {
        "": "Mostra o porquê: o argumento jurídico de cada conclusão, dispositivo por dispositivo, com os factos "
            "decisivos (--full: a derivação inteira, citada, até aos factos do cenário).",
        "--item": "id do item de rendimento (por omissão: todos os itens)",
    },
    "whatif": {
        "": "As menores mudanças nos factos que FILE marca como changeable (ou, se nenhum estiver marcado, em "
            "qualquer facto que não seja uma identidade) que fazem GOAL valer, cada uma com seu resultado; ou por que "
            "nenhuma mudança consegue.",
        "--goal": "o que deve valer, por exemplo 'max_rate(\"div-2024\", R), R <= 1000' (taxas em pontos-base)",
        "--full": "quando nenhuma mudança faz o objetivo valer, a análise inteira do porquê, com os passos do motor "
            "(por omissão: uma linha por regra que o poderia ter dado, com a condição que falhou e os seus números)",
    },
    "batch": {
        "--resume": "continua uma execução interrompida a partir do seu diário",
        "--bounds": "uma linha cujo resultado um facto em falta deixa indeterminado recebe o seu limite, como treaty "
            "check o dá (o teto válido qualquer que seja o facto, nas colunas `outcome_*` e `cap`, em palavras, e "
            "em `cap_at_most_bp`): um treaty check por cada linha distinta assim (por omissão; --bounds é aceite e "
            "não muda nada); --no-bounds: essa linha é respondida num conjunto de respostas, indeterminada e sem "
            "limite (mais rápido em razões com muitas linhas assim)",
        "--master": "com --engine spark: o nó mestre do Spark (spark://host:7077, yarn, local[4]); por omissão: o do "
            "spark-submit quando este iniciou o treaty, senão local[--workers]",
        "--chunk": "linhas por bloco: a unidade de trabalho de um processo e de --resume  [por omissão: 3000, "
            "escolhido por medição: pyhelpers.interfaces.batch.DEFAULT_CHUNK]",
        "--scheduler": "com --engine dask: o endereço do escalonador (tcp://host:8786); por omissão: um cluster local "
            "de --workers processos",
        "--partition-rows": "com --engine dask: linhas por partição (uma tarefa, um ficheiro de parte)",
        "--output": "ficheiro de resultados: .csv, .jsonl ou .parquet (escolhido pela extensão); uma pasta com "
            "--engine dask",
    },
    "explain-row": {
        "": "Executa de novo uma linha de um LEDGER com explicações (como `treaty explain` faz com um cenário): "
            "o seu resultado, depois o argumento jurídico (--full: a derivação inteira).",
    },
    "init": {
        "": "Um cenário comentado de TREATY com um item de rendimento de TYPE para começar: carrega e é verificado "
            "como está, e lista, comentado, cada facto que o item pode indicar.",
        "--output": "o ficheiro a gravar (por omissão: a saída padrão); um ficheiro existente nunca é substituído",
    },
    "rates": {
        "": "Os limites do Estado da fonte por tipo de rendimento de cada TREATY (por omissão: todos), calculados "
            "decidindo situações geradas dos dois lados de cada limiar que as regras testam.",
        "--output": "grava neste ficheiro (obrigatório para xlsx, a menos que a saída padrão seja redirecionada)",
        "--on": "o dia em que cada rendimento é pago e as respostas avaliadas (por omissão: o das regras, no "
                "preâmbulo)",
    },
    "crosscheck": {
        "": "Executa clingo e SWI-Prolog em cada cenário sob PATHS (por omissão: scenarios/) e indica se concordam.",
        "--generated": "também N cenários aleatórios, muitos com factos indicados como unknown",
    },
    "diff": {
        "": "Cada resposta dos cenários sob PATHS (por omissão: scenarios/) que difere entre duas versões: uma "
            "revisão git do pacote inteiro e esta, ou duas bases de regras com esta camada Python.",
        "--head": "uma pasta logic/ com que comparar (por omissão: este pacote)",
    },
    "mutate": {
        "": "Mutantes das regras (números ±1, comparações invertidas, condições retiradas, negações removidas), cada "
            "um executado nos cenários sob PATHS (por omissão: scenarios/<tratado>/, ou scenarios/ para core).",
        "--max": "uma amostra aleatória determinística de N mutantes (por omissão: todos os mutantes)",
        "--time-budget": "para depois desse tempo; os mutantes não executados são indicados como saltados",
        "--logic": "a pasta logic/ a mutar (por omissão: a base de regras instalada)",
        "--workers": "processos  [por omissão: 1]",
    },
    "coverage": {
        "--workers": "processos (por omissão: as CPUs)",
    },
    "report": {
        "": "Grava um relatório de decisão HTML autocontido para os cenários FILES: um resumo por item, cada "
            "derivação desenhada como um grafo com o texto do tratado de cada passo, os factos e o recibo (uma "
            "pasta: cada ficheiro *.yaml e *.yml dentro dela, ordenados pelo caminho).",
        "--output": "o ficheiro HTML a gravar",
    },
    "serve": {
        "--workers": "processos, cada um com a base de regras carregada uma vez e decidindo um pedido de cada vez",
        "--max-body": "maior cenário no corpo de um pedido [por omissão e máximo: 1.000.000, o limite do carregador]",
        "--time-limit": "maior time_limit que um pedido check ou whatif pode pedir (segundos; também o valor por "
            "omissão)",
        "--explain-time-limit": "segundos que um pedido explain, why-not ou report pode levar antes de ser "
            "interrompido",
        "--access-log": "regista cada pedido",
    },
}
"""The help in European Portuguese where it differs from :data:`HELP` (factos, ficheiro, indicar, por omissão)."""


def help_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of the help the environment asks for: ``TREATY_LANG``, else ``LC_ALL`` or ``LANG``
    starting with ``pt`` (``pt_BR.UTF-8``); English otherwise."""
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return normalize(env[ENV])
    for name in ("LC_ALL", "LANG"):
        if env.get(name):
            return "pt" if env[name].lower().startswith("pt") else "en"
    return "en"


def _long(param: click.Parameter) -> str:
    opts = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    return opts[0] if opts else ""


_ENGLISH: dict[int, tuple[click.Command | click.Parameter, dict[str, str | None]]] = {}
"""The help each command and option was written with (English), kept the first time :func:`localize` changes it,
so that a later call in English (or the next command line of a process that runs several: the tests) puts it
back."""


_FRAME = {
    "pt": (("Usage:", "Uso:"), ("Options:", "Opções:"), ("Commands:", "Comandos:"), ("Arguments:", "Argumentos:"),
           ("Show this message and exit.", "Mostra esta mensagem e sai."),
           ("Show the version and exit.", "Mostra a versão e sai."),
           ("[default: ", "[padrão: "), ("[required]", "[obrigatório]")),
    "pt-PT": (("[default: ", "[por omissão: "),),
}
"""Click's own words in the help it writes, in Portuguese (pt-PT: where Portugal's differ)."""

_current = ["en"]
"""The language :func:`localize` last put on the commands (the help's frame is written in it)."""


def frame(text: str, lang: str) -> str:
    """Click's own words in a help ``text`` (``Usage:``, ``Options:``, ``[default: text]``) in ``lang``'s: each
    matched with any run of spaces and line breaks between its words (click wraps the help of an option)."""
    if family(lang) == "en":
        return text
    pairs = dict(_FRAME["pt"])
    if normalize(lang) == "pt-PT":
        pairs.update(_FRAME["pt-PT"])
    for english, words in pairs.items():
        pattern = r"\s+".join(re.escape(w) for w in english.split(" "))
        text = re.sub(pattern, lambda _m, w=words: w, text)  # type: ignore[misc]
    return text


class Context(click.Context):
    """A command's context whose help is written with click's own words in the language of :func:`localize`."""

    def get_help(self) -> str:
        return frame(super().get_help(), _current[0])


def _keep(obj: click.Command | click.Parameter, *names: str) -> None:
    kept = _ENGLISH.setdefault(id(obj), (obj, {}))[1]
    for name in names:
        kept.setdefault(name, getattr(obj, name))


_METAVARS = {
    "pt": {"OPTIONS": "OPÇÕES", "COMMAND": "COMANDO", "ARGS": "ARGUMENTOS", "FILE": "ARQUIVO", "FILES": "ARQUIVOS",
           "PATH": "CAMINHO", "PATHS": "CAMINHOS", "DIRECTORY": "PASTA", "INTEGER RANGE": "INTEIRO",
           "FLOAT RANGE": "NÚMERO", "INTEGER": "INTEIRO", "FLOAT": "NÚMERO", "TEXT": "TEXTO", "BOOLEAN": "BOOLEANO",
           "TREATY": "TRATADO", "TYPE": "TIPO", "QUERY": "CONSULTA", "LEDGER": "RAZÃO", "GOAL": "OBJETIVO",
           "ARTICLE": "ARTIGO", "SECONDS": "SEGUNDOS", "ADDRESS": "ENDEREÇO", "YYYY-MM-DD": "AAAA-MM-DD",
           "RULES": "REGRAS", "CONDITIONS": "CONDIÇÕES"},
    "pt-PT": {"FILE": "FICHEIRO", "FILES": "FICHEIROS"},
}
"""The words click writes in a usage line and beside an option (its metavars: ``[OPTIONS]``, ``COMMAND [ARGS]...``,
an argument's name, a type's ``INTEGER``, a metavar the command gives), in Portuguese (pt-PT: where Portugal's
differ); a help's text that names an argument by its metavar (``the scenarios FILES``) names it so too. A choice's
values (``[text|json]``) and names (``URL``, ``BYTES``, ``JSON``) are the command line's own."""
_METAVAR = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, _METAVARS["pt"]), key=len, reverse=True))
                      + r")(?![\w-])")


def metavars(text: str, lang: str) -> str:
    """``text`` (a metavar, a usage line, a help) with click's metavars in ``lang``'s words (:data:`_METAVARS`);
    English as written."""
    if family(lang) == "en":
        return text
    words = {**_METAVARS["pt"], **(_METAVARS["pt-PT"] if normalize(lang) == "pt-PT" else {})}
    return _METAVAR.sub(lambda m: words[m.group(1)], text)


def _metavars(command: click.Command, lang: str) -> None:
    """``command``'s usage pieces and its parameters' metavars in ``lang`` (:func:`metavars`), kept to be put back."""
    _keep(command, "options_metavar")
    command.options_metavar = metavars(command.options_metavar or "", lang) or None
    if isinstance(command, click.Group):
        _keep(command, "subcommand_metavar")
        command.subcommand_metavar = metavars(command.subcommand_metavar, lang)
    ctx = click.Context(command)
    for param in command.params:
        if isinstance(param, click.Option) and (param.is_flag or param.count):
            continue
        _keep(param, "metavar")
        param.metavar = metavars(param.make_metavar(ctx), lang)


def localize(group: click.Group, lang: str) -> None:
    """Put the help of ``lang`` on ``group``, its options and its commands (English: the help as written)."""
    for obj, attrs in _ENGLISH.values():
        for name, value in attrs.items():
            setattr(obj, name, value)
    _current[0] = lang
    group.context_class = Context
    for command in group.commands.values():
        command.context_class = Context
    if family(lang) == "en":
        return
    european = normalize(lang) == "pt-PT"
    options = {**_OPTIONS, **(_OPTIONS_PT_PT if european else {})}
    _keep(group, "help")
    group.help = HELP[""][""]
    _options(group, HELP.get("", {}), options)
    _metavars(group, lang)
    for name, command in group.commands.items():
        table = {**HELP.get(name, {}), **(HELP_PT_PT.get(name, {}) if european else {})}
        if "" in table:
            _keep(command, "help", "short_help")
            command.help = metavars(table[""], lang)
            command.short_help = None
        _options(command, table, options)
        _metavars(command, lang)


def _options(command: click.Command, table: Mapping[str, str], options: Mapping[str, str]) -> None:
    """The help of ``command``'s options from its ``table``, else the one its options share."""
    for param in command.params:
        text = table.get(_long(param)) or options.get(_long(param))
        if text is not None and isinstance(param, click.Option):
            _keep(param, "help")
            param.help = text
