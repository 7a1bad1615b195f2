-- textfrag language server for Markdown buffers, for Neovim 0.7 and later
-- (Debian bookworm ships 0.7.2). Put this file in ~/.config/nvim/plugin/,
-- or copy it into your init.lua.
--
-- The server finds the project from the directory it starts in, so it is
-- started in the project root: the nearest directory above the page that
-- holds textfrag.toml, else the nearest that holds .git (a directory, or a
-- file in a git worktree), else the page's own directory. One server runs
-- per root; every Markdown buffer under that root attaches to it.

local cmd = { "textfrag", "lsp" } -- or the absolute path of textfrag

local uv = vim.uv or vim.loop

-- up returns the nearest directory at or above dir that holds name, or nil.
local function up(dir, name)
  while true do
    if uv.fs_stat(dir .. "/" .. name) then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

local function root_dir(buf)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
  return up(dir, "textfrag.toml") or up(dir, ".git") or dir
end

local clients = {} -- root -> client id, for Neovim 0.7 (no vim.lsp.start)

local function start(buf)
  if vim.bo[buf].buftype ~= "" or vim.api.nvim_buf_get_name(buf) == "" then
    return -- not a file on disk
  end
  local root = root_dir(buf)
  local config = { name = "textfrag", cmd = cmd, cmd_cwd = root, root_dir = root }
  if vim.lsp.start then -- 0.8 and later: reuses the client of the same name and root
    vim.lsp.start(config, { bufnr = buf })
    return
  end
  local id = clients[root]
  if not (id and vim.lsp.get_client_by_id(id)) then -- starting or running
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  group = vim.api.nvim_create_augroup("textfrag", { clear = true }),
  pattern = "markdown",
  callback = function(args)
    start(args.buf)
  end,
})
