// Public API of the sim layer.
export {};
