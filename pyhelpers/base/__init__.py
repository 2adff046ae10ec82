"""What every layer shares and no layer owns: the exception hierarchy (mapped to exit codes), the date
arithmetic of inclusive intervals and month periods, answer-set terms read from text, and the disk
cache of derived forms. Nothing here knows a scenario, a rule or a treaty."""
