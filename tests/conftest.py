import os
import sys

# shared helpers (programs.py) importable from every test directory
sys.path.insert(0, os.path.dirname(__file__))
