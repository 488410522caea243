// Public API of the queue layer.
export {};
