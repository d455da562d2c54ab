import assert from 'node:assert/strict';
import { total } from '../src/app.js';

assert.equal(total([{ price: 0.1, quantity: 3 }]), 0.3);
assert.equal(total([]), 0);
console.log('2 tests passed');
