import sys

from tendays.cli.main import main

sys.exit(main())
