# Core tests (loader, thinning, physics, CLI).
