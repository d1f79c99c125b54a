// A Memory class whose every config (constructor, `fromConfig`, `open`) goes through `transform` first, and
// whose every new instance is handed to `made(memory, config)` with the config as given. The factories'
// instances get the prototype of the class they were called on, so `instanceof` holds for subclasses too
// (memwasm/mem0's Memory extends one of these).
export function withConfig(Base, transform, made = () => {}) {
  return class extends Base {
    constructor(config) {
      super(transform(config));
      made(this, config);
    }
    static fromConfig(config) {
      const memory = Object.setPrototypeOf(super.fromConfig(transform(config)), this.prototype);
      made(memory, config);
      return memory;
    }
    static async open(config) {
      const memory = Object.setPrototypeOf(await super.open(transform(config)), this.prototype);
      made(memory, config);
      return memory;
    }
  };
}
