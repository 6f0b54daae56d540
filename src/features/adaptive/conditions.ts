import jsep from 'jsep';

/**
 * Adaptive-content conditions: JavaScript-like expressions over the visitor's claims, written on site
 * sections, site-spaces, pages and header links (`visitor.claims.unsigned.isBetaUser == true`).
 *
 * jsep (a maintained expression parser; it builds an ESTree-like tree and never runs code) parses; this module
 * then accepts only a small, closed subset of that tree and evaluates it itself. The evaluator reads nothing
 * but the visitor object it is given, and only its own properties, so an expression cannot reach a global,
 * a prototype or a constructor, and nothing here uses `eval` or `new Function`. GitBook's own evaluator
 * (`@gitbook/expr`) accepts the whole of JavaScript's expressions, arrow functions included; conditions
 * written for GitBook use the subset kept here: literals, `visitor.claims.*` paths, `!`, `==` `===` `!=`
 * `!==` `<` `<=` `>` `>=`, `&&` `||` `??`, `a ? b : c`, array literals and a few string/array methods.
 */
export interface VisitorContext {
  claims: Record<string, unknown>;
}

export type ConditionCheck = { ok: true } | { ok: false; message: string };

/** The seed's bound on a condition (sections, site-spaces, header links: 1 to 1024 characters). */
export const MAX_CONDITION_LENGTH = 1024;
/** Nesting bound: jsep and the evaluator recurse, and no honest condition nests this deep. */
export const MAX_CONDITION_DEPTH = 32;

const ROOT = 'visitor';
/** Names that lead from data to the machinery of JavaScript objects; refused wherever they appear. */
const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
const BINARY_OPERATORS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||', '??']);
const UNARY_OPERATORS = new Set(['!', '-']);
/** Methods a condition may call, with how many arguments each takes; they run only on strings and arrays. */
const METHODS: Record<string, number> = { includes: 1, startsWith: 1, endsWith: 1, toLowerCase: 0, toUpperCase: 0, trim: 0 };

class ConditionError extends Error {}

/**
 * Whether `expression` is a condition this server can evaluate. Called when a condition is written, so a
 * bad one is a 400 then rather than a section that silently never shows. `field` names the input in the
 * message (`body/condition: unexpected "=" at character 12`).
 */
export function checkCondition(expression: string, field = 'condition'): ConditionCheck {
  try {
    parseCondition(expression);
    return { ok: true };
  } catch (error) {
    if (error instanceof ConditionError) return { ok: false, message: `${field}: ${error.message}` };
    throw error;
  }
}

/**
 * Whether a visitor with these claims sees the content. A condition that cannot be evaluated (a stored one
 * that no longer parses, a method called on a missing claim) hides the content: `false`, as GitBook does.
 * An empty condition is no condition (GitBook: `true`).
 */
export function evaluateCondition(expression: string, visitor: VisitorContext): boolean {
  if (expression.trim() === '') return true;
  try {
    const tree = parseCondition(expression);
    const root = { claims: isRecord(visitor.claims) ? visitor.claims : {} };
    return Boolean(evaluate(tree, root));
  } catch {
    return false;
  }
}

/**
 * What `visitor` is for an expression: the verified token's claims, with the unsigned claims (from the URL's
 * `visitor.*` parameters) under `unsigned`. A signed claim named `unsigned` cannot stand in for them.
 */
export function visitorContext(signedClaims: Record<string, unknown> | null, unsignedClaims: Record<string, unknown>): VisitorContext {
  return { claims: { ...(signedClaims ?? {}), unsigned: unsignedClaims } };
}

function parseCondition(expression: string): jsep.Expression {
  if (typeof expression !== 'string') throw new ConditionError('must be a string');
  if (expression.length > MAX_CONDITION_LENGTH) {
    throw new ConditionError(`is ${expression.length} characters long; at most ${MAX_CONDITION_LENGTH} are allowed`);
  }
  if (expression.trim() === '') throw new ConditionError('must not be empty');
  checkBracketDepth(expression);
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (error) {
    // jsep reports "Unexpected "=" at character 12".
    const message = error instanceof Error ? error.message : String(error);
    throw new ConditionError(message.charAt(0).toLowerCase() + message.slice(1));
  }
  checkNode(tree, 0);
  return tree;
}

/** Refuses deep nesting before jsep recurses into it; brackets inside string literals do not count. */
function checkBracketDepth(expression: string): void {
  let depth = 0;
  let quote: string | undefined;
  for (let index = 0; index < expression.length; index += 1) {
    const char = expression[index];
    if (quote) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') {
      depth += 1;
      if (depth > MAX_CONDITION_DEPTH) throw new ConditionError(`nests deeper than ${MAX_CONDITION_DEPTH} levels at character ${index}`);
    } else if (char === ')' || char === ']') depth -= 1;
  }
}

/** The allowlist: every node type, operator, name and method a condition may use. */
function checkNode(node: jsep.Expression, depth: number): void {
  if (depth > MAX_CONDITION_DEPTH) throw new ConditionError(`nests deeper than ${MAX_CONDITION_DEPTH} levels`);
  const next = depth + 1;
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new ConditionError(`the literal ${(node as jsep.Literal).raw} is not allowed`);
      }
      return;
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name === ROOT || name === 'undefined') return;
      throw new ConditionError(`unknown name "${name}"; a condition reads the visitor's claims as visitor.claims.<name>`);
    }
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      if (member.optional) throw new ConditionError('optional chaining (?.) is not supported; a missing claim reads as undefined');
      propertyName(member);
      checkNode(member.object, next);
      return;
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee;
      if (callee.type !== 'MemberExpression' || (callee as jsep.MemberExpression).computed) {
        throw new ConditionError(`only the methods ${Object.keys(METHODS).join(', ')} can be called`);
      }
      const method = propertyName(callee as jsep.MemberExpression);
      const arity = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
      if (arity === undefined) throw new ConditionError(`the method "${method}" is not allowed; allowed: ${Object.keys(METHODS).join(', ')}`);
      if (call.arguments.length !== arity) throw new ConditionError(`${method}() takes ${arity} argument${arity === 1 ? '' : 's'}`);
      checkNode((callee as jsep.MemberExpression).object, next);
      for (const argument of call.arguments) checkNode(argument, next);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!UNARY_OPERATORS.has(unary.operator)) throw new ConditionError(`the operator "${unary.operator}" is not allowed`);
      checkNode(unary.argument, next);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY_OPERATORS.has(binary.operator)) {
        throw new ConditionError(`the operator "${binary.operator}" is not allowed; conditions compare and combine: ${[...BINARY_OPERATORS].join(' ')}`);
      }
      checkNode(binary.left, next);
      checkNode(binary.right, next);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      checkNode(conditional.test, next);
      checkNode(conditional.consequent, next);
      checkNode(conditional.alternate, next);
      return;
    }
    case 'ArrayExpression': {
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (element === null) throw new ConditionError('an array literal cannot have holes');
        checkNode(element, next);
      }
      return;
    }
    case 'Compound':
      throw new ConditionError('a condition is one expression (found several, separated by ";", "," or spaces)');
    case 'ThisExpression':
      throw new ConditionError('"this" is not allowed; a condition reads visitor.claims.<name>');
    default:
      throw new ConditionError(`${node.type} is not allowed in a condition`);
  }
}

/** The property a member access names: a plain name or a literal in brackets, never a computed value. */
function propertyName(member: jsep.MemberExpression): string {
  let name: string;
  if (!member.computed && member.property.type === 'Identifier') name = (member.property as jsep.Identifier).name;
  else if (member.computed && member.property.type === 'Literal') {
    const value = (member.property as jsep.Literal).value;
    if (typeof value !== 'string' && typeof value !== 'number') throw new ConditionError('a property in brackets must be a string or a number');
    name = String(value);
  } else {
    throw new ConditionError('a property in brackets must be a literal string or number, not a computed value');
  }
  if (FORBIDDEN_NAMES.has(name)) throw new ConditionError(`the property "${name}" is not allowed`);
  return name;
}

type Value = unknown;

function evaluate(node: jsep.Expression, root: { claims: Record<string, unknown> }): Value {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier':
      return (node as jsep.Identifier).name === ROOT ? root : undefined;
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      return ownProperty(evaluate(member.object, root), propertyName(member));
    }
    case 'CallExpression': {
      const call = node as jsep.CallExpression;
      const callee = call.callee as jsep.MemberExpression;
      const receiver = evaluate(callee.object, root);
      const args = call.arguments.map((argument) => evaluate(argument, root));
      return callMethod(receiver, propertyName(callee), args);
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, root);
      if (unary.operator === '!') return !value;
      if (typeof value !== 'number') throw new ConditionError('"-" applies to numbers only');
      return -value;
    }
    case 'BinaryExpression':
      return evaluateBinary(node as jsep.BinaryExpression, root);
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluate(conditional.test, root) ? evaluate(conditional.consequent, root) : evaluate(conditional.alternate, root);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) => evaluate(element as jsep.Expression, root));
    default:
      throw new ConditionError(`${node.type} is not allowed in a condition`);
  }
}

function evaluateBinary(node: jsep.BinaryExpression, root: { claims: Record<string, unknown> }): Value {
  const left = evaluate(node.left, root);
  switch (node.operator) {
    case '&&':
      return left ? evaluate(node.right, root) : left;
    case '||':
      return left ? left : evaluate(node.right, root);
    case '??':
      return left ?? evaluate(node.right, root);
  }
  const right = evaluate(node.right, root);
  switch (node.operator) {
    case '===':
      return left === right;
    case '!==':
      return left !== right;
    case '==':
      return looselyEqual(left, right);
    case '!=':
      return !looselyEqual(left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(node.operator, left, right);
    default:
      throw new ConditionError(`the operator "${node.operator}" is not allowed`);
  }
}

/**
 * JavaScript's `==` between primitives (so "1" == 1 and null == undefined, as GitBook's conditions expect);
 * objects and arrays are equal only to themselves, so no conversion of a claim object is ever attempted.
 */
function looselyEqual(left: Value, right: Value): boolean {
  if (isPrimitive(left) && isPrimitive(right)) return left == right;
  return left === right;
}

/** Ordering compares two numbers or two strings; anything else is false rather than a coercion. */
function compare(operator: '<' | '<=' | '>' | '>=', left: Value, right: Value): boolean {
  const comparable = (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable) return false;
  const [a, b] = [left as number | string, right as number | string];
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}

/** Reads data, never machinery: own properties of plain objects and arrays; anything else is undefined. */
function ownProperty(target: Value, name: string): Value {
  if (FORBIDDEN_NAMES.has(name)) return undefined;
  if (Array.isArray(target)) {
    if (name === 'length') return target.length;
    return /^(0|[1-9]\d*)$/.test(name) ? target[Number(name)] : undefined;
  }
  if (typeof target === 'string') return name === 'length' ? target.length : undefined;
  if (isRecord(target) && Object.hasOwn(target, name)) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    // A getter would be code; claims are JSON data and have none.
    return descriptor && 'value' in descriptor ? descriptor.value : undefined;
  }
  return undefined;
}

/** Each allowed method, spelled out: nothing is looked up on a prototype by a name from the expression. */
function callMethod(receiver: Value, method: string, args: Value[]): Value {
  const [argument] = args;
  if (typeof receiver === 'string') {
    switch (method) {
      case 'toLowerCase':
        return receiver.toLowerCase();
      case 'toUpperCase':
        return receiver.toUpperCase();
      case 'trim':
        return receiver.trim();
      case 'includes':
        return typeof argument === 'string' && receiver.includes(argument);
      case 'startsWith':
        return typeof argument === 'string' && receiver.startsWith(argument);
      case 'endsWith':
        return typeof argument === 'string' && receiver.endsWith(argument);
    }
  }
  if (Array.isArray(receiver) && method === 'includes') return receiver.includes(argument);
  throw new ConditionError(`${method}() cannot be called on ${receiver === null ? 'null' : typeof receiver}`);
}

function isPrimitive(value: Value): value is string | number | boolean | null | undefined {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isRecord(value: Value): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
