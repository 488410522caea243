// Public API of the store layer.
export {};
