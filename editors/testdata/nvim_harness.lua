-- Runs in `nvim --headless -u NONE`: loads the snippet named by $SNIPPET with
-- spies on Neovim's LSP functions (which still call through, so a fake
-- `textfrag` on PATH is really started), opens the files named in $OPEN
-- (separated by newlines; *.md as Markdown, "scratch" as a Markdown buffer
-- with no file), and writes what happened as JSON to $OUT.
-- copy keeps what JSON can hold of a config Neovim fills in with functions.
local function copy(config)
  return { name = config.name, cmd = config.cmd, cmd_cwd = config.cmd_cwd, root_dir = config.root_dir }
end

local rec = { starts = {}, start_clients = {}, attaches = {}, configs = {}, enables = {} }
local lsp = vim.lsp
if os.getenv("NO_LSP_START") == "1" then
  lsp.start = nil -- behave as Neovim 0.7
end
if os.getenv("FAKE_LSP_START") == "1" then -- a stand-in for Neovim 0.8+'s vim.lsp.start
  lsp.start = function(config, opts)
    table.insert(rec.starts, { config = copy(config), bufnr = opts and opts.bufnr })
  end
elseif lsp.start then
  local real = lsp.start
  lsp.start = function(config, opts)
    table.insert(rec.starts, { config = copy(config), bufnr = opts and opts.bufnr })
    return real(config, opts)
  end
end
local real_start_client = lsp.start_client
lsp.start_client = function(config)
  table.insert(rec.start_clients, copy(config))
  return real_start_client(config)
end
local real_attach = lsp.buf_attach_client
lsp.buf_attach_client = function(buf, id)
  table.insert(rec.attaches, { buf = vim.api.nvim_buf_get_name(buf), id = id })
  return real_attach(buf, id)
end
if os.getenv("FAKE_CONFIG") == "1" then -- stand-ins for Neovim 0.11's API
  lsp.config = function(name, cfg)
    table.insert(rec.configs, { name = name, config = cfg })
  end
  lsp.enable = function(name)
    table.insert(rec.enables, name)
  end
end

local ok, err = pcall(dofile, os.getenv("SNIPPET"))
if not ok then
  rec.load_error = tostring(err)
end
for file in (os.getenv("OPEN") or ""):gmatch("[^\n]+") do
  local ok2, err2 = pcall(function()
    if file == "scratch" then -- a Markdown buffer that is no file
      vim.cmd("enew")
      vim.bo.buftype = "nofile"
      vim.api.nvim_buf_set_name(0, "scratch.md") -- named, yet no file
      vim.bo.filetype = "markdown"
      return
    end
    vim.cmd("edit " .. vim.fn.fnameescape(file))
    vim.bo.filetype = file:match("%.md$") and "markdown" or "text"
  end)
  if not ok2 then
    rec.open_error = tostring(err2)
  end
end
-- Let each started textfrag write its line before Neovim exits and ends it.
vim.wait(10000, function()
  local f = io.open(os.getenv("TEXTFRAG_FAKE_LOG") or "", "r")
  if not f then
    return #rec.start_clients == 0
  end
  local n = 0
  for _ in f:lines() do
    n = n + 1
  end
  f:close()
  return n >= #rec.start_clients
end, 20)
local okw, errw = pcall(function()
  local f = assert(io.open(os.getenv("OUT"), "w"))
  f:write(vim.fn.json_encode(rec))
  f:close()
end)
if not okw then
  io.stderr:write("nvim_harness: " .. tostring(errw) .. "\n")
end
vim.cmd("qall!")
