/** control: conditions combined left to right, then one of assign / capture / continueTo per action (ControlStep.process). */

import type { RE2JS } from 're2js';
import { type RenderContext, RenderError, type StepOutcome } from '../context.js';
import { captureWhole, compileBounded, matchesWhole } from '../regex.js';
import type { ControlStep } from '../schema.js';
import { expand } from '../variables.js';
import { javaFloat } from './java-float.js';

type Condition = ControlStep['conditions'][number];

function compare(a: number | string, b: number | string, operator: Condition['operator']): boolean {
  switch (operator) {
    case 'equals':
      return a === b || (Number.isNaN(a) && Number.isNaN(b));
    case 'notequal':
      return !(a === b || (Number.isNaN(a) && Number.isNaN(b)));
    case 'greater':
      return a > b;
    case 'greaterEqual':
      return a >= b;
    case 'less':
      return a < b;
    case 'lessEqual':
      return a <= b;
    default:
      throw new RenderError('designer.control', `operator "${operator}" cannot compare`);
  }
}

/**
 * A regex compiled as written (no `$` expansion) for the bounded engine; one it cannot run
 * (invalid, RE2 lacks the syntax, or too long) fails the render.
 */
function compile(regex: string | undefined): RE2JS {
  const compiled = compileBounded(regex ?? '');
  if (!compiled.ok)
    throw new RenderError('designer.control', `invalid regex "${regex}": ${compiled.problem}`);
  return compiled.regex;
}

/** Evaluates one condition against the request's variables. */
export function evaluateCondition(condition: Condition | undefined, ctx: RenderContext): boolean {
  if (!condition) throw new RenderError('designer.control', 'the condition expression names no condition');
  if (condition.operator === 'matches') {
    const m = condition.matcher;
    if (!m) throw new RenderError('designer.control', `condition ${condition.name} has no matcher`);
    return matchesWhole(compile(m.regex), expand(m.text, ctx.vars));
  }
  const c = condition.comparison;
  if (!c) throw new RenderError('designer.control', `condition ${condition.name} has no comparison`);
  const left = expand(c.operand1, ctx.vars);
  const right = expand(c.operand2, ctx.vars);
  if (c.type === 'numeric') {
    const a = javaFloat(left);
    const b = javaFloat(right);
    if (a === undefined || b === undefined) {
      throw new RenderError('designer.control', `cannot compare "${left}" and "${right}" as numbers`);
    }
    return compare(a, b, condition.operator);
  }
  return compare(left, right, condition.operator);
}

/**
 * Combines the conditions as written in `conditionExpression` ("C1 AND C2 OR C3"), strictly left
 * to right, stopping as soon as the result is known; without an expression the actions run.
 */
export function evaluateConditions(step: ControlStep, ctx: RenderContext): boolean {
  if (step.conditionExpression == null) return true;
  const byName = new Map(step.conditions.map((c) => [c.name, c]));
  let result = true;
  let operation: 'AND' | 'OR' | undefined;
  for (const part of step.conditionExpression.split(' ')) {
    if (part === 'AND' || part === 'OR') operation = part;
    else if (part.startsWith('C')) {
      if (operation === undefined) result = evaluateCondition(byName.get(part), ctx);
      else if (operation === 'AND') result = result && evaluateCondition(byName.get(part), ctx);
      else result = result || evaluateCondition(byName.get(part), ctx);
    }
  }
  return result;
}

function store(ctx: RenderContext, name: string, value: string, scope: 'mod' | 'app' | undefined) {
  ctx.vars.set(scope === 'app' ? `sticky_${name}` : `module_${name}`, value);
}

/** Runs the step; returns the module to continue with when an action says so. */
export function runControl(step: ControlStep, ctx: RenderContext): StepOutcome {
  if (!evaluateConditions(step, ctx)) return undefined;
  for (const action of step.actions) {
    if (action.continueTo) {
      if (action.continueTo.target != null) return { goto: action.continueTo.target };
    } else if (action.assign) {
      const { varName, expression, varScope } = action.assign;
      store(ctx, varName, expand(expression, ctx.vars), varScope);
    } else if (action.capture) {
      const { regex, data, varName, varScope } = action.capture;
      const m = captureWhole(compile(regex), expand(data, ctx.vars));
      if (m) {
        if (m.length < 2) throw new RenderError('designer.control', `capture regex "${regex}" has no group`);
        store(ctx, varName, m[1] ?? '', varScope);
      }
    }
  }
  return undefined;
}
