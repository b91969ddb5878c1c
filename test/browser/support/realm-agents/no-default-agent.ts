// A module without a defineAgent default export (realm tests).
export const agent = { name: 'plain', run: async () => ({ finalAnswer: null, usage: null, costUsd: null, model: null }) }
