import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { warmUpSteps } from '../../server/src/server/warm-up';

describe('warm-up in idle time', () => {
  it('runs every step without an error (a step that throws ends the warm-up, and the first file opened is checked cold)', () => {
    const steps = warmUpSteps();
    assert.ok(steps.length > 0);
    for (const [i, step] of steps.entries()) assert.doesNotThrow(step, `step ${i}`);
  });
});
