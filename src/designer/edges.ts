/** Every module-to-module link of a project, shared by lint and graph. */
import type { Project, Step } from './schema.js';

/** A link from a module to another (by name), with its JSON path and a short label. */
export interface ModuleEdge {
  from: string;
  to: string;
  label: string;
  /** JSON path of the field naming the target. */
  path: string;
}

/** Links whose target is only known at run time (response-based routing). */
export interface DynamicEdge {
  from: string;
  label: string;
  path: string;
}

/** Module edges of a project. */
export interface ProjectEdges {
  edges: ModuleEdge[];
  dynamic: DynamicEdge[];
}

function stepEdges(
  step: Step,
  at: string,
  add: (to: string | undefined, label: string, path: string) => void,
  dyn: (label: string, path: string) => void,
): void {
  switch (step.kind) {
    case 'gather':
      step.menu?.mappings.forEach((m, i) => {
        add(m.next, m.digits, `${at}.menu.mappings[${i}].next`);
      });
      step.menu?.speechMappings.forEach((m, i) => {
        add(m.next, `speech: ${m.key}`, `${at}.menu.speechMappings[${i}].next`);
      });
      if (step.gatherType === 'collectdigits') {
        if (step.collectdigits) {
          add(
            step.collectdigits.next,
            `collect ${step.collectdigits.collectVariable}`,
            `${at}.collectdigits.next`,
          );
        }
        if (step.collectspeech) {
          add(
            step.collectspeech.next,
            `speech ${step.collectspeech.collectVariable}`,
            `${at}.collectspeech.next`,
          );
        }
      }
      return;
    case 'dial':
      add(step.nextModule, 'dial outcome', `${at}.nextModule`);
      step.dialNouns.forEach((n, i) => {
        const p = `${at}.dialNouns[${i}]`;
        if (n.dialType === 'conference') add(n.waitModule, 'conference wait', `${p}.waitModule`);
        else {
          add(n.beforeConnectModule, 'before connect', `${p}.beforeConnectModule`);
          add(n.statusCallbackModule, 'status callback', `${p}.statusCallbackModule`);
        }
      });
      return;
    case 'record':
      add(step.next, 'recorded', `${at}.next`);
      return;
    case 'sms':
    case 'email':
    case 'fax':
      add(step.next, `${step.kind} sent`, `${at}.next`);
      return;
    case 'redirect':
      add(step.next, 'redirect', `${at}.next`);
      return;
    case 'externalService':
      if (step.doRouting) {
        if (step.nextType === 'mapped') {
          step.routeMappings.forEach((m, i) => {
            add(m.next, `ES = ${m.value}`, `${at}.routeMappings[${i}].next`);
          });
        } else if (step.nextType === 'responseBased') {
          dyn('ES response', `${at}.nextValueExtractor`);
        } else add(step.next, 'ES', `${at}.next`);
      }
      add(step.exceptionNext, 'ES error', `${at}.exceptionNext`);
      add(step.onTimeout, 'ES timeout', `${at}.onTimeout`);
      return;
    case 'control':
      step.actions.forEach((a, i) => {
        add(a.continueTo?.target, `control ${a.name}`, `${at}.actions[${i}].continueTo.target`);
      });
      return;
    case 'ussdCollect':
      step.menu?.mappings.forEach((m, i) => {
        add(m.next, m.digits, `${at}.menu.mappings[${i}].next`);
      });
      if (step.gatherType === 'collectdigits' && step.collectdigits) {
        add(
          step.collectdigits.next,
          `collect ${step.collectdigits.collectVariable}`,
          `${at}.collectdigits.next`,
        );
      }
      return;
    default:
      return;
  }
}

/** Collects the module edges of every step. */
export function projectEdges(project: Project): ProjectEdges {
  const edges: ModuleEdge[] = [];
  const dynamic: DynamicEdge[] = [];
  project.nodes.forEach((node, n) => {
    node.steps.forEach((step, s) => {
      stepEdges(
        step,
        `nodes[${n}].steps[${s}]`,
        (to, label, path) => {
          if (to) edges.push({ from: node.name, to, label, path });
        },
        (label, path) => dynamic.push({ from: node.name, label, path }),
      );
    });
  });
  return { edges, dynamic };
}
