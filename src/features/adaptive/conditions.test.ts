import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCondition, evaluateCondition, MAX_CONDITION_LENGTH, visitorContext, type VisitorContext } from './conditions.ts';

const beta: VisitorContext = visitorContext(
  { plan: 'enterprise', seats: 12, roles: ['admin', 'editor'], org: { region: 'eu', flags: { sso: true } } },
  { isBetaUser: true, language: 'fr', count: 3 },
);
const nobody: VisitorContext = visitorContext(null, {});

function refused(expression: string): string {
  const result = checkCondition(expression, 'body/condition');
  assert.equal(result.ok, false, `expected "${expression}" to be refused`);
  return (result as { message: string }).message;
}

describe('checkCondition', () => {
  it('accepts the conditions GitBook writes', () => {
    for (const expression of [
      'visitor.claims.unsigned.isBetaUser == true',
      'visitor.claims.unsigned.isBetaUser === true',
      'visitor.claims.plan != "free" && !visitor.claims.unsigned.isBetaUser',
      'visitor.claims.roles.includes("admin") || visitor.claims.seats >= 10',
      "visitor.claims.org['region'] === 'eu'",
      'visitor.claims.roles[0] == "admin"',
      '["fr", "de"].includes(visitor.claims.unsigned.language)',
      'visitor.claims.plan.toLowerCase().startsWith("ent")',
      'visitor.claims.unsigned.count > -1 ? true : false',
      'visitor.claims.missing ?? false',
      'visitor.claims.x === undefined',
      '(visitor.claims.a)',
      'true',
    ]) {
      assert.deepEqual(checkCondition(expression), { ok: true }, expression);
    }
  });

  it('names the field and the position of a syntax error', () => {
    assert.equal(refused('visitor.claims.x =  = 1'), 'body/condition: unexpected "=" at character 17');
    assert.match(refused('visitor.claims.x =='), /^body\/condition: expected expression after == at character \d+$/);
    assert.match(refused('visitor.claims.includes('), /^body\/condition: /);
  });

  it('refuses an empty or over-long condition', () => {
    assert.equal(refused('   '), 'body/condition: must not be empty');
    const long = `visitor.claims.a == "${'x'.repeat(MAX_CONDITION_LENGTH)}"`;
    assert.match(refused(long), /at most 1024/);
    assert.deepEqual(checkCondition(`visitor.claims.a == "${'x'.repeat(MAX_CONDITION_LENGTH - 25)}"`), { ok: true });
  });

  it('refuses assignment and arrow functions', () => {
    refused('visitor.claims.x = 1');
    refused('visitor.claims.roles.some(r => r == "admin")');
  });

  it('refuses names other than visitor', () => {
    assert.match(refused('process.exit()'), /the method "exit" is not allowed/);
    assert.match(refused('globalThis.x == 1'), /unknown name "globalThis"/);
    assert.match(refused('x == 1'), /unknown name "x"/);
    assert.match(refused('this.x'), /"this" is not allowed/);
  });

  it('refuses constructors, prototypes and computed properties', () => {
    assert.match(refused("visitor.constructor.constructor('return process')()"), /only the methods/);
    assert.match(refused("visitor.constructor.constructor('return process')"), /the property "constructor" is not allowed/);
    assert.match(refused('visitor.claims.__proto__'), /the property "__proto__" is not allowed/);
    assert.match(refused('visitor["constructor"]'), /the property "constructor" is not allowed/);
    assert.match(refused('visitor.claims.prototype == 1'), /"prototype"/);
    assert.match(refused('visitor.claims[visitor.claims.key]'), /not a computed value/);
    assert.match(refused('visitor.claims.x.__defineGetter__'), /not allowed/);
  });

  it('allows only a few methods, with their arity', () => {
    assert.match(refused('visitor.claims.x.toString()'), /the method "toString" is not allowed/);
    assert.match(refused('visitor.claims.x.valueOf() == 1'), /not allowed/);
    assert.match(refused('visitor.claims.plan.includes()'), /includes\(\) takes 1 argument/);
    assert.match(refused('visitor.claims.plan.trim(1)'), /trim\(\) takes 0 arguments/);
    assert.match(refused('visitor.claims["includes"]("a")'), /only the methods/);
    assert.match(refused('visitor()'), /only the methods/);
  });

  it('refuses operators outside the subset', () => {
    assert.match(refused('visitor.claims.a + 1 == 2'), /the operator "\+" is not allowed/);
    assert.match(refused('visitor.claims.a | 1'), /"\|"/);
    assert.match(refused('~visitor.claims.a'), /"~"/);
    assert.match(refused('visitor.claims.a; visitor.claims.b'), /one expression/);
    assert.match(refused('typeof visitor'), /one expression|not allowed|unknown name/);
    assert.match(refused('new Function("return 1")'), /one expression|not allowed|unknown name/);
  });

  it('refuses deep nesting before parsing it', () => {
    assert.match(refused(`${'('.repeat(500)}true${')'.repeat(500)}`), /nests deeper than 32 levels/);
    assert.match(refused(`${'!'.repeat(200)}true`), /nests deeper than 32 levels/);
    assert.match(refused(`${'['.repeat(40)}${']'.repeat(40)}`), /nests deeper/);
    // Brackets inside a string are text.
    assert.deepEqual(checkCondition(`visitor.claims.a == "${'('.repeat(100)}"`), { ok: true });
  });

  it('defaults the field name', () => {
    const result = checkCondition('visitor.claims.x =  = 1');
    assert.equal(result.ok === false && result.message, 'condition: unexpected "=" at character 17');
  });
});

describe('evaluateCondition', () => {
  it('reads signed and unsigned claims', () => {
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser == true', beta), true);
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser == true', nobody), false);
    assert.equal(evaluateCondition('visitor.claims.plan === "enterprise"', beta), true);
    assert.equal(evaluateCondition('visitor.claims.org.flags.sso', beta), true);
    assert.equal(evaluateCondition("visitor.claims['org'].region == 'eu'", beta), true);
    assert.equal(evaluateCondition('visitor.claims.roles[1] == "editor"', beta), true);
    assert.equal(evaluateCondition('visitor.claims.roles.length == 2', beta), true);
  });

  it('combines with && || ! and the ternary', () => {
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser && visitor.claims.seats > 10', beta), true);
    assert.equal(evaluateCondition('!visitor.claims.unsigned.isBetaUser || visitor.claims.seats < 10', beta), false);
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser ? visitor.claims.seats == 12 : false', beta), true);
    assert.equal(evaluateCondition('visitor.claims.missing ?? true', beta), true);
    assert.equal(evaluateCondition('visitor.claims.unsigned.count >= 3 && visitor.claims.unsigned.count <= 3', beta), true);
    assert.equal(evaluateCondition('visitor.claims.unsigned.count > -4', beta), true);
  });

  it('compares loosely like JavaScript between primitives only', () => {
    assert.equal(evaluateCondition('visitor.claims.seats == "12"', beta), true);
    assert.equal(evaluateCondition('visitor.claims.seats === "12"', beta), false);
    assert.equal(evaluateCondition('visitor.claims.missing == null', beta), true);
    assert.equal(evaluateCondition('visitor.claims.missing != undefined', beta), false);
    assert.equal(evaluateCondition('visitor.claims.roles == "admin,editor"', beta), false);
    assert.equal(evaluateCondition('visitor.claims.seats < "20"', beta), false);
    assert.equal(evaluateCondition('visitor.claims.plan > "a"', beta), true);
  });

  it('runs the allowed methods on strings and arrays', () => {
    assert.equal(evaluateCondition('visitor.claims.roles.includes("admin")', beta), true);
    assert.equal(evaluateCondition('["fr", "de"].includes(visitor.claims.unsigned.language)', beta), true);
    assert.equal(evaluateCondition('visitor.claims.plan.toUpperCase() == "ENTERPRISE"', beta), true);
    assert.equal(evaluateCondition('visitor.claims.plan.startsWith("ent") && visitor.claims.plan.endsWith("rise")', beta), true);
    assert.equal(evaluateCondition('visitor.claims.plan.includes("terp")', beta), true);
    assert.equal(evaluateCondition('"  x ".trim() == "x"', beta), true);
  });

  it('is false when the expression fails', () => {
    assert.equal(evaluateCondition('visitor.claims.missing.includes("a")', beta), false);
    assert.equal(evaluateCondition('!visitor.claims.missing.toLowerCase()', beta), false);
    assert.equal(evaluateCondition('visitor.claims.x =', beta), false);
    assert.equal(evaluateCondition('process.exit()', beta), false);
    assert.equal(evaluateCondition('-visitor.claims.plan', beta), false);
  });

  it('treats an empty condition as no condition', () => {
    assert.equal(evaluateCondition('', nobody), true);
    assert.equal(evaluateCondition('  ', nobody), true);
  });

  it('never reaches globals, prototypes or constructors, whatever the claims hold', () => {
    const hostile: VisitorContext = visitorContext(JSON.parse('{"__proto__": {"polluted": true}, "toString": "x"}') as Record<string, unknown>, {});
    assert.equal(evaluateCondition("visitor.constructor.constructor('return process')()", hostile), false);
    assert.equal(evaluateCondition('visitor.claims.__proto__.polluted', hostile), false);
    assert.equal(evaluateCondition('visitor.claims.hasOwnProperty', beta), false);
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser.valueOf', beta), false);
    assert.equal(evaluateCondition('visitor.claims.toString == "x"', hostile), true, 'an own claim named toString is data');
    assert.equal(evaluateCondition('visitor.claims.plan.length', beta), true);
    assert.equal(evaluateCondition('visitor.claims.roles.map', beta), false);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('does not run getters on claims', () => {
    let ran = false;
    const claims = Object.defineProperty({}, 'sneaky', { enumerable: true, get: () => ((ran = true), true) });
    assert.equal(evaluateCondition('visitor.claims.sneaky', { claims: claims as Record<string, unknown> }), false);
    assert.equal(ran, false);
  });

  it('keeps a signed claim named unsigned from standing in for the unsigned claims', () => {
    const context = visitorContext({ unsigned: { isBetaUser: true } }, {});
    assert.equal(evaluateCondition('visitor.claims.unsigned.isBetaUser', context), false);
  });
});
