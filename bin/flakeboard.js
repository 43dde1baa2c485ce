#!/usr/bin/env node
// The package's binary: everything lives in the bundle built by tsup.
import '../dist/cli.js';
