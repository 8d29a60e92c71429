"""`ruleslawyer mcp`: the reference served to AI assistants over the Model Context Protocol.

- `reference.Reference`: the store opened once for reading, the corpus (errata applied) kept
  between calls; the one place that calls the library (so a changed signature is fixed here).
- `citation`: where a record comes from, as a structured field and in words.
- `passages` and `answer`: a natural question -> the passages of the records that answer it.
- `tools`: what each MCP tool returns (plain dicts and text), without the SDK.
- `server`: the SDK's `MCPServer` with the tools, the `rules_question` prompt and the record
  resources; the only module that imports the `mcp` SDK (absolute imports: `import mcp` in
  this package reaches the SDK, not this package).

Nothing here imports click, ingests, or opens a path a client names.
"""
