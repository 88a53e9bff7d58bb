import { equal } from "node:assert/strict";
import { languageForSource, ParserPool } from "../../src/parser/mod.ts";

const enc = new TextEncoder();
const lang = (path: string, text: string) => languageForSource(path, enc.encode(text))?.id;

Deno.test("a .h header is C unless it uses C++ (or declares Objective-C interfaces)", () => {
  const cHeader = `#ifndef LIST_H
#define LIST_H
#include <stdint.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
/* A class of lists; see list.c. */
struct node { int value; struct node *next; };
struct node *list_new(int value);
#ifdef __cplusplus
}
#endif
#endif
`;
  equal(lang("include/list.h", cHeader), "c");
  equal(lang("empty.h", ""), "c");
  for (
    const cpp of [
      "class Shape {\n public:\n  virtual double area() const = 0;\n};\n",
      "namespace geo {\nint x;\n}\n",
      "template <typename T>\nT max(T a, T b);\n",
      "#include <vector>\nint f();\n",
      "struct Circle : public Shape {};\n",
      "void f(std::string s);\n",
      "constexpr int N = 3;\n",
      'extern "C++" int g();\n',
      "struct S {\nprivate:\n  int x;\n};\n",
    ]
  ) equal(lang("shape.h", cpp), "cpp", cpp);
  equal(
    lang("View.h", "#import <Foundation/Foundation.h>\n@interface View : NSObject\n@end\n"),
    "objc",
  );
  // Only `.h` is ambiguous: the other C++ header extensions stay C++.
  equal(lang("shape.hpp", "int x;\n"), "cpp");
  equal(lang("SHAPE.H", "int x;\n"), "c");
  equal(lang("main.c", "class x;\n"), "c");
});

Deno.test("the parser pool parses a header with the grammar its content calls for", async () => {
  const pool = new ParserPool({ workers: 1 });
  try {
    const c = await pool.parse("list.h", enc.encode("int list_len(void) { return 0; }\n"));
    equal(c.language, "c");
    equal(c.symbols.map((s) => s.id).join(), "list.h::list_len#function");
    const cpp = await pool.parse(
      "shape.h",
      enc.encode("class Shape {\n public:\n  int area() { return 0; }\n};\n"),
    );
    equal(cpp.language, "cpp");
    equal(cpp.symbols.map((s) => s.id).join(), "shape.h::Shape#class,shape.h::Shape.area#method");
  } finally {
    await pool.close();
  }
});
