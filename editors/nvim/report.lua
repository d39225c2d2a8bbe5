-- Waits for the diagnostics of the current buffer and writes them to
-- standard output, one per line: line:column code message.
vim.wait(10000, function()
  return #vim.diagnostic.get(0) > 0
end, 50)
for _, d in ipairs(vim.diagnostic.get(0)) do
  io.stdout:write(string.format("%d:%d %s %s\n", d.lnum + 1, d.col + 1, tostring(d.code), d.message:gsub("\n.*", "")))
end
vim.cmd("qa!")
