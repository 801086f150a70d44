"""``python -m tensorjit.run -n N script.py [args]``: run a script on N MPI processes
(``communication/launch.py`` says what it adds to mpirun)."""
from .communication.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
