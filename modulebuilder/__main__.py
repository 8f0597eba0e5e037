from modulebuilder.cli import main

raise SystemExit(main())
