// Appended to the engine emscripten builds (createLayoutxEngine): the page's
// script (app.js) finds window.layoutxEngine and asks it instead of the server.
window.layoutxEngine = createLayoutxEngine().then((module) => ({
  answer(call, form) {
    const reply = module.ccall("layoutx_answer", "string", ["string", "string"], [call, form]);
    const newline = reply.indexOf("\n");
    return { status: Number(reply.slice(0, newline)), body: reply.slice(newline + 1) };
  },
}));
