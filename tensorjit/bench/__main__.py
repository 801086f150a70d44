"""``python -m tensorjit.bench [simple|conv|attention|all]``: see ``cli.py``."""
from .cli import main

raise SystemExit(main())
