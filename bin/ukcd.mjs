#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the command works from a fresh clone without a build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/ukcd.ts');
