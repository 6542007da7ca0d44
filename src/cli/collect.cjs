#!/usr/bin/env node
// The bin: plain CommonJS that any Node parses (no import or export statement, no top-level await,
// no ?. or ??), so that an older Node than collect runs on gets one line and exit 2, not a
// SyntaxError or a stack trace. The command line itself is main.ts.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `collect: needs Node 22.13 or later (Node 24 recommended), this is Node ${process.versions.node}; ` +
      'install Node 24 (npm install -g node@24, or your system package manager) and run it again\n',
  );
  process.exitCode = 2;
} else {
  // V8's compiled code kept on disk by Node (in the temporary folder, shared by runs): start-up and
  // each reading thread skip compiling collect's modules again.
  require('node:module').enableCompileCache();
  void import('../bundle/collect.js');
}
