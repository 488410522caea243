// Public API of the api layer.
export {};
