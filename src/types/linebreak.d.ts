// Types for the `linebreak` package (Unicode UAX #14 line breaking), which ships none.
declare module 'linebreak' {
  interface Break {
    /** UTF-16 index where a line may (or must) start. */
    position: number;
    /** True for a mandatory break (after a line feed). */
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
