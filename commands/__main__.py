"""``python -m commands`` is the ``klaverjas`` command."""

from . import main

raise SystemExit(main())
