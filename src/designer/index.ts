// Public API of the designer layer.
export {};
