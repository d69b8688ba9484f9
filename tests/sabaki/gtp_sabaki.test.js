// Drives gtp_main.py through @sabaki/gtp, the GTP client library Sabaki uses,
// so the engine is checked against a real GUI's parser, not only our own.
// Run: (cd tests/sabaki && npm install) then `node --test tests/sabaki/`
// (tests/test_gtp.py does this when node_modules exists).
// PYTHON selects the interpreter (default: python3).

const test = require('node:test')
const assert = require('node:assert')
const path = require('node:path')
const {Controller} = require('@sabaki/gtp')

const root = path.resolve(__dirname, '..', '..')
const python = process.env.PYTHON || 'python3'

// Run `body(engine)` against a fresh engine, on a 9x9 board, and stop the engine after.
async function withEngine(body) {
  const engine = new Controller(python, [path.join(root, 'gtp_main.py'), '--weights', 'none'], {
    cwd: root
  })
  engine.start()
  try {
    await body(engine)
  } finally {
    await engine.stop()
  }
}

async function newGame(engine) {
  await engine.sendCommand({name: 'boardsize', args: ['9']})
  await engine.sendCommand({name: 'clear_board'})
}

// Send a streaming analysis command and, like Sabaki, end it with the next command
// once `count` info lines have arrived. Returns the response, the lines and that
// next command's response.
async function analyseThenInterrupt(engine, command, count = 3) {
  const lines = []
  let next = null
  const response = await engine.sendCommand(command, ({line}) => {
    if (line.startsWith('info ')) {
      lines.push(line)
      if (lines.length === count) next = engine.sendCommand({name: 'name'})
    }
  })
  return {response, lines, next: await next}
}

test('basic commands through @sabaki/gtp', () => withEngine(async engine => {
  let r = await engine.sendCommand({name: 'protocol_version'})
  assert.deepStrictEqual([r.error, r.content], [false, '2'])
  r = await engine.sendCommand({id: 12, name: 'name'})
  assert.deepStrictEqual([r.id, r.content], [12, 'goengine'])

  for (const command of [
    {name: 'boardsize', args: ['9']},
    {name: 'clear_board'},
    {name: 'komi', args: ['6.5']},
    {name: 'play', args: ['B', 'D4']}
  ]) {
    r = await engine.sendCommand(command)
    assert.strictEqual(r.error, false, command.name)
  }

  r = await engine.sendCommand({name: 'genmove', args: ['W']})
  assert.match(r.content, /^([A-HJ][1-9]|pass|resign)$/)

  r = await engine.sendCommand({name: 'play', args: ['B', 'D4']})
  assert.deepStrictEqual([r.error, r.content], [true, 'illegal move'])
  r = await engine.sendCommand({name: 'frobnicate'})
  assert.deepStrictEqual([r.error, r.content], [true, 'unknown command'])

  r = await engine.sendCommand({name: 'showboard'})
  assert.ok(r.content.split('\n').length >= 11)

  r = await engine.sendCommand({name: 'list_commands'})
  const commands = r.content.split('\n')
  for (const name of ['lz-analyze', 'lz-genmove_analyze', 'undo', 'loadsgf', 'printsgf']) {
    assert.ok(commands.includes(name), name)
  }

  r = await engine.sendCommand({name: 'printsgf'})
  assert.ok(r.content.startsWith('(;'))
  r = await engine.sendCommand({name: 'undo'})
  assert.strictEqual(r.error, false)
}))

test('lz-analyze streams until the next command', () => withEngine(async engine => {
  await newGame(engine)

  const {response: r, lines: infoLines, next: name} =
    await analyseThenInterrupt(engine, {name: 'lz-analyze', args: ['B', '5']})
  assert.strictEqual(r.error, false)
  assert.ok(infoLines.length >= 3)
  for (const line of infoLines) {
    for (const entry of line.split(/(?=info move)/)) {
      assert.match(entry.trim(),
        /^info move [A-HJ][1-9] visits \d+ winrate \d+ prior \d+ lcb \d+ order \d+ pv( [A-HJ][1-9]| pass)+$/)
    }
  }
  assert.strictEqual(name.content, 'goengine')

  const infos = []
  const gen = await engine.sendCommand({name: 'lz-genmove_analyze', args: ['B', '10']}, ({line}) => {
    if (line.startsWith('info ')) infos.push(line)
  })
  assert.strictEqual(gen.error, false)
  assert.match(gen.content, /play ([A-HJ][1-9]|pass|resign)$/)
}))

test('kata-analyze with ownership, as Sabaki sends it, streams until the next command', () => withEngine(async engine => {
  await newGame(engine)
  await engine.sendCommand({name: 'play', args: ['B', 'E5']})
  let r = await engine.sendCommand({name: 'list_commands'})
  assert.ok(r.content.split('\n').includes('kata-analyze'))

  // Sabaki's analyzeMove: [color, interval, 'ownership', 'true'] for kata-analyze
  const analysis = await analyseThenInterrupt(
    engine, {name: 'kata-analyze', args: ['W', '5', 'ownership', 'true']})
  const lines = analysis.lines
  assert.strictEqual(analysis.response.error, false)
  assert.ok(lines.length >= 3)
  for (const line of lines) {
    // Sabaki's parseAnalysis: the ownership values follow the word 'ownership'
    const match = line.match(/ownership\s+(.+)/)
    assert.ok(match, line)
    const values = match[1].trim().split(/\s+/).map(parseFloat)
    assert.strictEqual(values.length, 81)
    assert.ok(values.every(v => v >= -1 && v <= 1))
    assert.ok(values[4 * 9 + 4] < 0, 'E5 is Black\'s, seen from White to move')
    for (const entry of line.slice(0, match.index).split(/(?=info move)/)) {
      const m = entry.trim().match(
        /^info move [A-HJ][1-9] visits \d+ winrate [01]\.\d+ (?:scoreLead (-?\d+\.\d+) )?prior [01]\.\d+ lcb [01]\.\d+ order \d+ pv( [A-HJ][1-9]| pass)+$/)
      assert.ok(m, entry)
      // a searching player adds its score lead for White to move, in points
      assert.ok(m[1] === undefined || Math.abs(parseFloat(m[1])) <= 81 + 7.5, entry)
    }
  }
  assert.strictEqual(analysis.next.content, 'goengine')
}))
