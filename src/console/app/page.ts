/** A page draws itself into `view` and answers a function that stops its live updates. */
export type Page = (view: HTMLElement, param: string | undefined) => () => void;
