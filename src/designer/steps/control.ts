/** control: conditions combined left to right, then assign / capture / continueTo actions. */
import type { RenderContext, StepOutcome } from '../context.js';
import type { ControlStep } from '../schema.js';
import { expand } from '../variables.js';
import { fullMatch } from './gather.js';

type Condition = ControlStep['conditions'][number];

function compare(a: number | string, b: number | string, operator: Condition['operator']): boolean {
  switch (operator) {
    case 'equals':
      return a === b;
    case 'notequal':
      return a !== b;
    case 'greater':
      return a > b;
    case 'greaterEqual':
      return a >= b;
    case 'less':
      return a < b;
    case 'lessEqual':
      return a <= b;
    default:
      return false;
  }
}

/** Evaluates one condition against the request's variables. */
export function evaluateCondition(condition: Condition, ctx: RenderContext): boolean {
  if (condition.operator === 'matches' || condition.matcher) {
    const m = condition.matcher;
    return fullMatch(expand(m?.regex, ctx.vars), expand(m?.text, ctx.vars));
  }
  const c = condition.comparison;
  const left = expand(c?.operand1, ctx.vars);
  const right = expand(c?.operand2, ctx.vars);
  if (c?.type === 'numeric') {
    if (left.trim() === '' || right.trim() === '') return false;
    const a = Number(left);
    const b = Number(right);
    if (Number.isNaN(a) || Number.isNaN(b)) return false;
    return compare(a, b, condition.operator);
  }
  return compare(left, right, condition.operator);
}

/**
 * Combines the conditions as written in `conditionExpression` ("C1 AND C2 OR C3"), strictly
 * left to right; without an expression all conditions must hold.
 */
export function evaluateConditions(step: ControlStep, ctx: RenderContext): boolean {
  const byName = new Map(step.conditions.map((c) => [c.name, c]));
  const value = (name: string): boolean => {
    const c = byName.get(name);
    return c ? evaluateCondition(c, ctx) : false;
  };
  const tokens = (step.conditionExpression ?? '').trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return step.conditions.every((c) => evaluateCondition(c, ctx));
  let result = value(tokens[0] as string);
  for (let i = 1; i + 1 < tokens.length; i += 2) {
    const op = (tokens[i] as string).toUpperCase();
    const next = value(tokens[i + 1] as string);
    result = op === 'OR' ? result || next : result && next;
  }
  return result;
}

function store(ctx: RenderContext, name: string, value: string, scope: 'mod' | 'app' | undefined) {
  ctx.vars.set(scope === 'app' ? `sticky_${name}` : `module_${name}`, value);
  ctx.vars.set(name, value);
}

/** Runs the step; returns the module to continue with when an action says so. */
export function runControl(step: ControlStep, ctx: RenderContext): StepOutcome {
  if (!evaluateConditions(step, ctx)) return undefined;
  for (const action of step.actions) {
    if (action.assign) {
      const { varName, expression, varScope } = action.assign;
      store(ctx, varName, expand(expression, ctx.vars), varScope);
    }
    if (action.capture) {
      const { regex, data, varName, varScope } = action.capture;
      let captured = '';
      try {
        const m = new RegExp(regex).exec(expand(data, ctx.vars));
        captured = m ? (m[1] ?? m[0]) : '';
      } catch {
        captured = '';
      }
      store(ctx, varName, captured, varScope);
    }
    if (action.continueTo?.target) return { goto: action.continueTo.target };
  }
  return undefined;
}
