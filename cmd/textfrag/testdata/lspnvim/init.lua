-- Neovim's built-in LSP client drives textfrag lsp (cmd/textfrag/lsp_nvim_test.go):
--   TEXTFRAG=bin OUT=result.json nvim --headless --clean -u init.lua docs/page.md
-- It waits for the page's diagnostics, asks for hover where the first one
-- is, writes both to OUT as JSON and quits. Runs on Neovim 0.7 (Debian 12)
-- and later: vim.lsp.start where there is one, else start_client.
local out = os.getenv('OUT')
local function finish(result)
  local f = assert(io.open(out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

-- The file named on the command line is loaded after this file runs.
vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local config = {
    name = 'textfrag',
    cmd = { os.getenv('TEXTFRAG'), 'lsp' },
    root_dir = vim.fn.getcwd(),
  }
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'markdown'
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, client_id)
  end
  if not client_id then
    finish({ error = 'the client did not start' })
    return
  end

  local ok = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  local result = { diagnostics = {} }
  if not ok then
    result.error = 'no diagnostics within 15s'
    finish(result)
    return
  end
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, source = d.source, message = d.message,
    })
  end
  local first = vim.diagnostic.get(buf)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  local params = vim.lsp.util.make_position_params()
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000) or {}
  for _, r in pairs(responses) do
    if r.result and r.result.contents then
      result.hover = r.result.contents.value
    elseif r.err then
      result.error = vim.inspect(r.err)
    end
  end
  vim.lsp.stop_client(client_id)
  finish(result)
end })
