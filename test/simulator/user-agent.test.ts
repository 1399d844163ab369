// What the simulator reads from a User-Agent (zerver/lib/user_agent.py, compatibility.py).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseUserAgent, pronounsFieldTypeSupported, versionLessThan } from '../../simulator/engine/events/user-agent.ts';

describe('parseUserAgent', () => {
  it.each([
    ['ZulipMobile/27.191 (Android 12)', { name: 'ZulipMobile', version: '27.191' }],
    ['ZulipPython/0.9.0', { name: 'ZulipPython', version: '0.9.0' }],
    ['node-fetch', { name: 'node-fetch', version: null }],
    ['Mozilla/5.0 (X11; Linux x86_64)', { name: 'Mozilla', version: '5.0' }],
  ])('%s', (ua, expected) => {
    expect(parseUserAgent(ua)).toEqual(expected);
  });
});

describe('versionLessThan', () => {
  it.each([
    ['27.191', '27.192', true],
    ['27.192', '27.192', false],
    ['27.200', '27.192', false],
    ['28', '27.192', false],
    ['27', '27.192', true],
    ['27.192.1', '27.192', false],
    ['beta', '27.192', null],
    ['27.192-beta', '27.192', null],
  ] as const)('%s < %s is %s', (a, b, expected) => {
    expect(versionLessThan(a, b)).toBe(expected);
  });

  it('orders plain numeric versions like their number lists, one way only', () => {
    const version = fc.array(fc.nat(500), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(version, version, (x, y) => {
        const lt = versionLessThan(x.join('.'), y.join('.'));
        const gt = versionLessThan(y.join('.'), x.join('.'));
        expect(lt && gt).toBeFalsy();
        const firstDifference = x.findIndex((n, i) => i < y.length && n !== y[i]);
        if (firstDifference >= 0) expect(lt).toBe(x[firstDifference]! < y[firstDifference]!);
      }),
    );
  });
});

describe('pronounsFieldTypeSupported', () => {
  it.each([
    [undefined, true],
    ['ZulipMobile/27.191 (iOS 17)', false],
    ['ZulipMobile/27.192 (iOS 17)', true],
    ['ZulipMobile/26.5', false],
    ['ZulipTerminal/0.7.0', true],
    ['ZulipMobile', true],
  ])('%s → %s', (ua, expected) => {
    expect(pronounsFieldTypeSupported(ua)).toBe(expected);
  });
});
