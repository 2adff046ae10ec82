% treaty-logic: the run-time library of the Prolog translation of logic/ (see translate.py).
%
% Loaded at the top of every translated program. Predicates of the rule base are '@name'/N (tabled
% when some rule derives them, dynamic otherwise), so that no name of the rule base can clash with a
% Prolog built-in; everything here is '$'-prefixed. Values are clingo's: integers, atoms (constants),
% strings, compound terms (functions; '' is the tuple), and '#inf' / '#sup'.

:- style_check(-discontiguous).
:- style_check(-singleton).
:- set_prolog_flag(double_quotes, string).

% --------------------------------------------------------------------------------- symbol order ---
% clingo's total order on symbols: #inf < integers < constants < strings < functions (by arity, then
% name, then arguments) < #sup. Prolog's standard order agrees within each kind; across kinds the
% ranks below decide (SWI-Prolog would compare an atom and a string by their text).

'$tl_ord'(O, A, B) :- A == B, !, O = (=).
'$tl_ord'(O, A, B) :- integer(A), integer(B), !, compare(O, A, B).
'$tl_ord'(O, A, _) :- A == '#inf', !, O = (<).
'$tl_ord'(O, _, B) :- B == '#inf', !, O = (>).
'$tl_ord'(O, A, _) :- A == '#sup', !, O = (>).
'$tl_ord'(O, _, B) :- B == '#sup', !, O = (<).
'$tl_ord'(O, A, B) :- compound(A), compound(B), !,
    compound_name_arity(A, NA, KA), compound_name_arity(B, NB, KB),
    compare(O0, KA-NA, KB-NB),
    ( O0 == (=) -> A =.. [_|XA], B =.. [_|XB], '$tl_ord_args'(O, XA, XB) ; O = O0 ).
'$tl_ord'(O, A, B) :- '$tl_rank'(A, RA), '$tl_rank'(B, RB), compare(O0, RA, RB),
    ( O0 == (=) -> compare(O, A, B) ; O = O0 ).

% SWI-Prolog orders atoms and strings by their text, clingo constants before strings
'$tl_rank'(X, 0) :- integer(X), !.
'$tl_rank'(X, 1) :- atom(X), !.
'$tl_rank'(X, 2) :- string(X), !.
'$tl_rank'(_, 3).

'$tl_ord_args'(=, [], []).
'$tl_ord_args'(O, [X|Xs], [Y|Ys]) :- '$tl_ord'(O0, X, Y), ( O0 == (=) -> '$tl_ord_args'(O, Xs, Ys) ; O = O0 ).

% '$tl_cmp'(Op, A, B): the comparison A Op B of two bound values, Op one of lt le gt ge.
'$tl_cmp'(Op, A, B) :- integer(A), integer(B), !, '$tl_num'(Op, A, B).
'$tl_cmp'(Op, A, B) :- '$tl_ord'(O, A, B), '$tl_holds'(Op, O).

'$tl_num'(lt, A, B) :- A < B.
'$tl_num'(le, A, B) :- A =< B.
'$tl_num'(gt, A, B) :- A > B.
'$tl_num'(ge, A, B) :- A >= B.
'$tl_num'(eq, A, B) :- A =:= B.
'$tl_num'(ne, A, B) :- A =\= B.

'$tl_holds'(lt, <).
'$tl_holds'(le, <).
'$tl_holds'(le, =).
'$tl_holds'(gt, >).
'$tl_holds'(ge, >).
'$tl_holds'(ge, =).
'$tl_holds'(eq, =).
'$tl_holds'(ne, <).
'$tl_holds'(ne, >).

% ----------------------------------------------------------------------------------- aggregates ---
% Body aggregates have set semantics: the elements are the distinct tuples t(W, ...) whose condition
% holds. Pairs is a list of Tuple-Delays from call_delays/2: a tuple whose condition is undefined
% under the well-founded semantics is "open". Without open tuples the aggregate is exact; with some,
% every subset of them is tried: a result the same for all subsets is true, otherwise undefined.

'$tl_agg'(Fn, Pairs, Guards) :-
    '$tl_split'(Pairs, Certain, Open),
    (   Open == []
    ->  '$tl_aggval'(Fn, Certain, V), '$tl_guards'(Guards, V)
    ;   '$tl_aggvals'(Fn, Certain, Open, Vs),
        (   '$tl_binds'(Guards)
        ->  member(V, Vs), '$tl_guards'(Guards, V), ( Vs = [_] -> true ; undefined )
        ;   include('$tl_guards_ok'(Guards), Vs, Ok), Ok \== [],
            ( Ok == Vs -> true ; undefined )
        )
    ).

'$tl_nagg'(Fn, Pairs, Guards) :-
    '$tl_split'(Pairs, Certain, Open),
    (   Open == []
    ->  '$tl_aggval'(Fn, Certain, V), \+ '$tl_guards'(Guards, V)
    ;   '$tl_aggvals'(Fn, Certain, Open, Vs),
        include('$tl_guards_ok'(Guards), Vs, Ok),
        ( Ok == [] -> true ; Ok \== Vs, undefined )
    ).

'$tl_split'(Pairs, Certain, Open) :-
    findall(T-K, ( member(T-D, Pairs), '$tl_delays'(D, K) ), TKs),
    findall(T, member(T-t, TKs), C0), sort(C0, Certain),
    findall(T, ( member(T-u, TKs), \+ memberchk(T, Certain) ), O0), sort(O0, Open).

'$tl_aggvals'(Fn, Certain, Open, Vs) :-
    length(Open, N),
    (   N > 12
    ->  throw(error(resource_error(undefined_aggregate_elements(N)), _))
    ;   true
    ),
    findall(V, ( '$tl_subset'(Open, S), append(Certain, S, All), sort(All, L), '$tl_aggval'(Fn, L, V) ), V0),
    sort(V0, Vs).

'$tl_subset'([], []).
'$tl_subset'([X|Xs], [X|Ys]) :- '$tl_subset'(Xs, Ys).
'$tl_subset'([_|Xs], Ys) :- '$tl_subset'(Xs, Ys).

'$tl_aggval'(count, L, N) :- length(L, N).
'$tl_aggval'(sum, L, N) :- '$tl_weights'(L, Ws), sum_list(Ws, N).
'$tl_aggval'(sumplus, L, N) :- '$tl_weights'(L, Ws0), include([W]>>(W > 0), Ws0, Ws), sum_list(Ws, N).
'$tl_aggval'(min, L, M) :- '$tl_firsts'(L, Xs), foldl('$tl_min', Xs, '#sup', M).
'$tl_aggval'(max, L, M) :- '$tl_firsts'(L, Xs), foldl('$tl_max', Xs, '#inf', M).

'$tl_weights'(L, Ws) :- findall(W, (member(T, L), compound(T), arg(1, T, W), integer(W)), Ws).
'$tl_firsts'(L, Xs) :- findall(X, (member(T, L), compound(T), arg(1, T, X)), Xs).
'$tl_min'(X, M0, M) :- ( '$tl_ord'(<, X, M0) -> M = X ; M = M0 ).
'$tl_max'(X, M0, M) :- ( '$tl_ord'(>, X, M0) -> M = X ; M = M0 ).

% Guards: g(Op, left, T) is T Op Value, g(Op, right, T) is Value Op T, g(eq, bind, X) binds X.
'$tl_guards'([], _).
'$tl_guards'([G|Gs], V) :- '$tl_guard'(G, V), '$tl_guards'(Gs, V).

'$tl_guard'(g(eq, bind, X), V) :- !, X = V.
'$tl_guard'(g(eq, _, T), V) :- !, T == V.
'$tl_guard'(g(ne, _, T), V) :- !, T \== V.
'$tl_guard'(g(Op, left, T), V) :- '$tl_cmp'(Op, T, V).
'$tl_guard'(g(Op, right, T), V) :- '$tl_cmp'(Op, V, T).

'$tl_guards_ok'(Gs, V) :- \+ \+ '$tl_guards'(Gs, V).
'$tl_binds'(Gs) :- memberchk(g(_, bind, _), Gs).

% ------------------------------------------------------------------------------------ settling ---
% SWI-Prolog 9 leaves some answers conditional ("undefined") although the well-founded model makes
% them true or false: where tnot/1 meets a table that is still incomplete (the rule base is
% stratified on atoms, not on predicates, so variant tables form cycles through negation), the
% delayed literals are not always simplified away (there is no answer completion). '$tl_settle'/2
% computes the truth of such an answer from its residual program by the alternating fixpoint, which
% is exact for a ground program.

% '$tl_truth'(A, K): K is t, u or f for a ground atom A (tabled or not).
'$tl_truth'(undefined, K) :- !, K = u.
'$tl_truth'(A, K) :-
    findall(D, call_delays(A, D), Ds),
    (   Ds == [] -> K = f
    ;   memberchk(true, Ds) -> K = t
    ;   '$tl_settle'(A, K)
    ).

% '$tl_delays'(D, K): the truth of a delay list returned by call_delays/2.
'$tl_delays'(true, K) :- !, K = t.
'$tl_delays'((A, B), K) :- !, '$tl_delays'(A, KA), ( KA == f -> K = f ; '$tl_delays'(B, KB), '$tl_and'(KA, KB, K) ).
'$tl_delays'((A ; B), K) :- !, '$tl_delays'(A, KA), ( KA == t -> K = t ; '$tl_delays'(B, KB), '$tl_or'(KA, KB, K) ).
'$tl_delays'(tnot(A), K) :- !, '$tl_truth'(A, KA), '$tl_not'(KA, K).
'$tl_delays'(A, K) :- '$tl_truth'(A, K).

'$tl_and'(t, K, K).
'$tl_and'(u, K0, K) :- ( K0 == f -> K = f ; K = u ).
'$tl_and'(f, _, f).
'$tl_or'(f, K, K).
'$tl_or'(u, K0, K) :- ( K0 == t -> K = t ; K = u ).
'$tl_or'(t, _, t).
'$tl_not'(t, f).
'$tl_not'(u, u).
'$tl_not'(f, t).

'$tl_settle'(G, K) :-
    (   call_residual_program(G, Program)
    ->  findall(H-Ls, ( member(C, Program), '$tl_clause'(C, H, Ls) ), Cs0),
        Cs = [undefined-[neg(undefined)]|Cs0],
        '$tl_afp'(Cs, [], Under, Over),
        (   ord_memberchk(G, Under) -> K = t
        ;   ord_memberchk(G, Over) -> K = u
        ;   K = f
        )
    ;   K = f
    ).

'$tl_clause'((H :- B), H, Ls) :- !, '$tl_dnf'(B, Ls).
'$tl_clause'(H, H, []).

% the disjuncts of a residual body, each a list of pos(A) / neg(A)
'$tl_dnf'(true, []) :- !.
'$tl_dnf'((A ; B), Ls) :- !, ( '$tl_dnf'(A, Ls) ; '$tl_dnf'(B, Ls) ).
'$tl_dnf'((A, B), Ls) :- !, '$tl_dnf'(A, LA), '$tl_dnf'(B, LB), append(LA, LB, Ls).
'$tl_dnf'(tnot(A), [neg(A)]) :- !.
'$tl_dnf'(A, [pos(A)]).

'$tl_afp'(Cs, Under0, Under, Over) :-
    '$tl_lfp'(Cs, Under0, [], Over1),
    '$tl_lfp'(Cs, Over1, [], Under1),
    (   Under1 == Under0
    ->  Under = Under1, Over = Over1
    ;   '$tl_afp'(Cs, Under1, Under, Over)
    ).

% least model of the clauses, a negative literal neg(A) holding iff A is not in Ref
'$tl_lfp'(Cs, Ref, T0, T) :-
    findall(H, ( member(H-Ls, Cs), \+ ord_memberchk(H, T0), '$tl_holds_in'(Ls, T0, Ref) ), New0),
    (   New0 == []
    ->  T = T0
    ;   sort(New0, New), ord_union(T0, New, T1), '$tl_lfp'(Cs, Ref, T1, T)
    ).

'$tl_holds_in'([], _, _).
'$tl_holds_in'([pos(A)|Ls], T, Ref) :- ord_memberchk(A, T), '$tl_holds_in'(Ls, T, Ref).
'$tl_holds_in'([neg(A)|Ls], T, Ref) :- \+ ord_memberchk(A, Ref), '$tl_holds_in'(Ls, T, Ref).

% ------------------------------------------------------------------------------ clingo's syntax ---
% '$tl_text'(Term, String): the value as clingo prints it (str() of a clingo Symbol); predicates lose
% their '@' prefix.

'$tl_text'(T, S) :- with_output_to(string(S), '$tl_write'(T)).

'$tl_write'(T) :- integer(T), !, write(T).
'$tl_write'(T) :- string(T), !, '$tl_write_string'(T).
'$tl_write'('') :- !, write('()').
'$tl_write'(T) :- atom(T), !, '$tl_name'(T, N), write(N).
'$tl_write'(T) :- compound_name_arguments(T, F, Args), '$tl_name'(F, N),
    (   N == ''
    ->  write('('), '$tl_write_args'(Args), ( Args = [_] -> write(',') ; true ), write(')')
    ;   write(N), write('('), '$tl_write_args'(Args), write(')')
    ).

'$tl_name'(F, N) :- ( sub_atom(F, 0, 1, _, '@') -> sub_atom(F, 1, _, 0, N) ; N = F ).

'$tl_write_args'([A]) :- !, '$tl_write'(A).
'$tl_write_args'([A|As]) :- '$tl_write'(A), write(','), '$tl_write_args'(As).

'$tl_write_string'(S) :-
    string_codes(S, Cs), put_char('"'), forall(member(C, Cs), '$tl_put_code'(C)), put_char('"').

'$tl_put_code'(0'\\) :- !, write('\\\\').
'$tl_put_code'(0'") :- !, write('\\"').
'$tl_put_code'(0'\n) :- !, write('\\n').
'$tl_put_code'(C) :- put_code(C).

% ------------------------------------------------------------------------------------ batch dump ---
% '$tl_dump'(Scenarios, File): every atom of every tabled predicate of the rule base, one line
% "t ATOM" (true) or "u ATOM" (undefined). All scenarios at once (one open call per predicate) when
% that works; after an error, scenario by scenario (their id first), so that an error in one
% scenario is reported for it ("e SID ERROR") and does not stop the others.

'$tl_dump'(Scenarios, File) :-
    catch(setup_call_cleanup(open(File, write, Out, [encoding(utf8)]), '$tl_dump_all'(Out), close(Out)),
          _, fail),
    !.
'$tl_dump'(Scenarios, File) :-
    abolish_all_tables,
    setup_call_cleanup(open(File, write, Out, [encoding(utf8)]),
                       '$tl_dump_each'(Out, Scenarios),
                       close(Out)).

'$tl_dump_all'(Out) :-
    forall('$tl_derived'(P, N), ( functor(G, P, N), '$tl_dump_goal'(Out, G) )).

'$tl_dump_each'(Out, Scenarios) :-
    forall(member(S, Scenarios),
           catch(forall(('$tl_derived'(P, N), N > 0), ( functor(G, P, N), arg(1, G, S), '$tl_dump_goal'(Out, G) )),
                 E, ( '$tl_text'(S, ST), format(Out, "e ~w ~q~n", [ST, E]) ))).

'$tl_dump_goal'(Out, G) :-
    forall(( call_delays(G, D), '$tl_answer_truth'(G, D, K) ),
           ( '$tl_text'(G, T), format(Out, "~w ~w~n", [K, T]) )).

'$tl_answer_truth'(_, true, K) :- !, K = t.
'$tl_answer_truth'(G, _, K) :- '$tl_settle'(G, K), K \== f.

% ---------------------------------------------------------------------------- single scenarios ---
% Used through pyswip: facts are asserted (their clause references kept), tables abolished.

'$tl_load_facts'(Facts) :-
    '$tl_unload_facts',
    findall(Ref, ( member(F, Facts), assertz(F, Ref) ), Refs),
    nb_setval('$tl_fact_refs', Refs),
    abolish_all_tables.

'$tl_unload_facts' :-
    (   nb_current('$tl_fact_refs', Refs) -> forall(member(R, Refs), erase(R)) ; true ),
    nb_setval('$tl_fact_refs', []),
    abolish_all_tables.

% '$tl_answers'(Pre, Atom, Tests, Rows): every instance of Atom (after the goals Pre) for which
% Tests hold, as [AtomText, Truth] with Truth "true" or "undefined".
'$tl_answers'(Pre, Atom, Tests, Rows) :-
    findall([T, K], ( call(Pre), call_delays(Atom, D), '$tl_answer_truth'(Atom, D, K0), call(Tests),
                      '$tl_text'(Atom, T), ( K0 == t -> K = "true" ; K = "undefined" ) ),
            Rows0),
    sort(Rows0, Rows).

% --------------------------------------------------------------------------------- proof trees ---
% '$tl_why'(Atom, Rows): a derivation of a true atom, found by running the rules again over the
% complete tables ('$tl_rule'(Index, Head, Parts, Env) mirrors each clause), never through an atom it
% is already proving. Rows, depth first: [Depth, Kind, Position, Rule, AtomText, Env], where Kind is
% rule | fact | given | neg | cmp | agg, Env the rule's variables as ["Name", ValueText] pairs.

'$tl_why'(A, Rows) :- '$tl_why'(A, [], T), !, phrase('$tl_rows'(T, 0), Rows).

'$tl_why'(A, Path, T) :-
    functor(A, P, N),
    (   '$tl_derived'(P, N)
    ->  \+ memberchk(A, Path),
        (   '$tl_rule'(I, A, Parts, Env), '$tl_why_parts'(Parts, [A|Path], Cs)
        ->  ( I == fact -> T = fact(A) ; T = rule(I, A, Env, Cs) )
        ;   T = given(A)
        )
    ;   T = given(A)
    ).

'$tl_why_parts'([], _, []).
'$tl_why_parts'([part(P, K, G, X)|Ps], Path, [C|Cs]) :-
    '$tl_why_goal'(K, G, X), '$tl_why_part'(K, P, X, Path, C), '$tl_why_parts'(Ps, Path, Cs).

'$tl_why_goal'(pos, G, A) :- !, call(G), '$tl_truth'(A, t).
'$tl_why_goal'(neg, _, A) :- !, '$tl_truth'(A, f).
'$tl_why_goal'(_, G, _) :- call(G).

'$tl_why_part'(pos, P, A, Path, pos(P, T)) :- '$tl_why'(A, Path, T).
'$tl_why_part'(neg, P, A, _, neg(P, A)).
'$tl_why_part'(cmp, P, _, _, cmp(P)).
'$tl_why_part'(hidden, _, _, _, none).
'$tl_why_part'(agg, P, agg(Fn, Pairs, Els), Path, agg(P, V, N, Ts)) :-
    '$tl_split'(Pairs, Certain, _), '$tl_aggval'(Fn, Certain, V),
    findall(As, ( member(el(C, As), Els), call(C), '$tl_all_true'(As) ), L0), sort(L0, L), length(L, N),
    findall(A, ( member(As, L), member(A, As) ), Atoms),
    maplist('$tl_why_elem'(Path), Atoms, Ts).

'$tl_all_true'(As) :- forall(member(A, As), '$tl_truth'(A, t)).

'$tl_why_elem'(Path, A, T) :- ( '$tl_why'(A, Path, T) -> true ; T = given(A) ).

'$tl_rows'(rule(I, A, Env, Cs), D) --> { '$tl_text'(A, T), '$tl_env'(Env, E) }, [[D, "rule", -1, I, T, E]],
    { D1 is D + 1 }, '$tl_rows_list'(Cs, D1).
'$tl_rows'(fact(A), D) --> { '$tl_text'(A, T) }, [[D, "fact", -1, -1, T, []]].
'$tl_rows'(given(A), D) --> { '$tl_text'(A, T) }, [[D, "given", -1, -1, T, []]].
'$tl_rows'(pos(_, T), D) --> '$tl_rows'(T, D).
'$tl_rows'(neg(P, A), D) --> { '$tl_text'(A, T) }, [[D, "neg", P, -1, T, []]].
'$tl_rows'(none, _) --> [].
'$tl_rows'(cmp(P), D) --> [[D, "cmp", P, -1, "", []]].
'$tl_rows'(agg(P, V, N, Ts), D) --> { '$tl_text'(V, VT) }, [[D, "agg", P, N, VT, []]],
    { D1 is D + 1 }, '$tl_rows_list'(Ts, D1).

'$tl_rows_list'([], _) --> [].
'$tl_rows_list'([T|Ts], D) --> '$tl_rows'(T, D), '$tl_rows_list'(Ts, D).

'$tl_env'(Env, E) :- findall([N, T], ( member(N=V, Env), ground(V), '$tl_text'(V, T) ), E).
