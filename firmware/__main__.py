import sys

from farmbox.firmware.cli import main

sys.exit(main())
