"""The engine: the rule base loaded once (:mod:`.program`), sliced to what a scenario can reach
(:mod:`.statements`, :mod:`.reach`, :mod:`.slicing`), ground and solved by clingo (:mod:`.solve`), the
answer sets read into typed results (:mod:`.answers`, :mod:`.results`) with their amounts in Decimal
(:mod:`.amounts`); facts given as alternatives solved together (:mod:`.alternatives`); the smallest
changes that make a goal hold (:mod:`.whatif`, its search stopped at the time limit even while clingo
grounds: :mod:`.bounded`); the treaties' catalogue (:mod:`.catalog`); the facts the rules can ask for,
read from their heads (:mod:`.asked`); queries (:mod:`.query`) and expectations (:mod:`.expect`). It
reads scenarios and their facts, never an explanation or an output."""
