-- grundy lsp in Neovim 0.7 to 0.9 (docs/editors.md gives the 0.10+ and
-- 0.11+ forms). Used by tests/editors.rs, headless.
vim.cmd("autocmd BufRead,BufNewFile *.game setfiletype game")
vim.api.nvim_create_autocmd("FileType", {
  pattern = "game",
  callback = function(args)
    local id = vim.lsp.start_client({ name = "grundy", cmd = { "grundy", "lsp" } })
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
