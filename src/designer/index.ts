// Public API of the designer layer.
export type {
  CompiledApp,
  CompileOptions,
  RenderResult,
} from './compile.js';
export { compileLoaded, compileProject, ProjectError } from './compile.js';
export type { DesignerLogEntry, FetchLike, FetchResponseLike } from './context.js';
export type { DynamicEdge, ModuleEdge, ProjectEdges } from './edges.js';
export { projectEdges } from './edges.js';
export { projectGraph } from './graph.js';
export type { DesignerHandlerOptions, DesignerRequest, DesignerResponse } from './handler.js';
export { createDesignerHandler } from './handler.js';
export type { LintDiagnostic, LintOptions, LintResult } from './lint.js';
export { lintLoadedProject, lintProject, unrunnablePatterns } from './lint.js';
export type { LoadResult, ProjectProblem } from './load.js';
export { loadProject } from './load.js';
export type { JsonSyntaxError } from './parse-json.js';
export { parseJson } from './parse-json.js';
export { MAX_PATTERN_LENGTH, MAX_TEXT_LENGTH } from './regex.js';
export type { Target } from './render.js';
export { parseTarget } from './render.js';
export type { Project, ProjectNode, Step, StepKind } from './schema.js';
export { CURRENT_VERSION, projectSchema } from './schema.js';
export type { UpgradeResult } from './upgrade.js';
export { FORMAT_VERSIONS, upgradeProject } from './upgrade.js';
