"""Player profiles and ratings: the pure rating math (``ratings``), a match's counters
(``stats``) and the service that records finished matches and serves boards and profiles."""
