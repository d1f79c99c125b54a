// A Memory class whose every config (constructor, `fromConfig`, `open`) goes through `transform` first. The
// factories' instances get the prototype of the class they were called on, so `instanceof` holds for
// subclasses too (memwasm/mem0's Memory extends one of these).
export function withConfig(Base, transform) {
  return class extends Base {
    constructor(config) {
      super(transform(config));
    }
    static fromConfig(config) {
      return Object.setPrototypeOf(super.fromConfig(transform(config)), this.prototype);
    }
    static async open(config) {
      return Object.setPrototypeOf(await super.open(transform(config)), this.prototype);
    }
  };
}
