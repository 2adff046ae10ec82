"""Output: results, explanations and what-if answers rendered as text, JSON and Markdown in English or
Portuguese (:mod:`.render`), and the self-contained HTML decision report (:mod:`.report`)."""
