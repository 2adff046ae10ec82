"""The maintainers' regression tools over the rule base: condition coverage (:mod:`.coverage`), mutation
testing (:mod:`.mutate`) and the answer diff between two versions of the package or of the rules
(:mod:`.diff`)."""
