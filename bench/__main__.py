"""`python -m bench [--quick | --smoke]`: the same as `make bench`."""
import sys

from bench.run import main

sys.exit(main())
