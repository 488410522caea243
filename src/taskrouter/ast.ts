/** Syntax of a `targetWorkers` expression (the TaskRouter expression language). */
export type Literal = string | number | boolean;
export type Operand =
  | { kind: 'literal'; value: Literal }
  | { kind: 'list'; items: Literal[] }
  | { kind: 'path'; path: string[] };
export type Operator = '==' | '!=' | '>' | '<' | '>=' | '<=' | 'IN' | 'NOT IN' | 'CONTAINS' | 'HAS';
export type Expression =
  | { kind: 'and' | 'or'; left: Expression; right: Expression }
  | { kind: 'compare'; op: Operator; left: Operand; right: Operand };
