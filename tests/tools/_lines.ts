/** Split a stream of text into lines (without the line terminators). */
export class TextLineStream extends TransformStream<string, string> {
  constructor() {
    let buffer = "";
    super({
      transform(chunk, controller) {
        buffer += chunk;
        const parts = buffer.split(/\r?\n/);
        buffer = parts.pop() ?? "";
        for (const line of parts) controller.enqueue(line);
      },
      flush(controller) {
        if (buffer !== "") controller.enqueue(buffer);
      },
    });
  }
}
