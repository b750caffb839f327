"""The score sheet for games played with real cards: the pure fold (``sheet``), its log
entries (``entries``), the actor that commits and sends (``actor``), the actor kind and its
codes (``sheets``), and its CSV and printable exports (``export``)."""
