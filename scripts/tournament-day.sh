#!/usr/bin/env bash
# A tournament day on the sample tournament, end to end from the command line: a team that does
# not show (forfeit), a late player, a game moved and re-timed, a late team and a game added, an
# injured player marked inactive, a game abandoned, a correction, then kill -9 and a restart; a
# display written from docs/PROTOCOL.md alone (examples/display.py) follows all of it. Prints
# each command and the daemon's answer. Uses the debug build (swift build) and ports 5755/5756.
# Usage: scripts/tournament-day.sh
set -u
REPO="$(cd "$(dirname "$0")/.." && pwd)"
B="$(cd "$REPO" && swift build --show-bin-path)"
D=$(mktemp -d /tmp/courtside-day.XXXX); cp "$REPO/config/tournament.yaml" "$D/"; cd "$D"
trap 'kill $DPID 2>/dev/null; rm -rf "$D"' EXIT
sed -i 's/5555/5755/; s/5556/5756/' tournament.yaml
E="--command-endpoint tcp://127.0.0.1:5755 --event-endpoint tcp://127.0.0.1:5756"
$B/courtsided --config tournament.yaml > daemon.log 2>&1 &
DPID=$!; sleep 3
mkfifo until; (/usr/bin/python3 "$REPO/examples/display.py" --command tcp://127.0.0.1:5755 --events tcp://127.0.0.1:5756 --until-stdin --json < until > display.json 2>display.err &)
exec 3>until
c() { echo "\$ courtside $*"; $B/courtside "$@" $E --client-id organiser 2>&1 | sed 's/^/  /'; }
echo "## 09:55 the Wolves do not show up: g2 is forfeited"
c forfeit g2 away --reason "Wolves did not show by 10:15"
echo "## a player arrives late, not on the roster: Dee joins the Lions, and scores in g1"
c score g1 ann 2
c score g1 dee 2
c player add lions dee --name "Dee Dunn" --reason "arrived 10:05"
c score g1 dee 2
echo "## the final must move to Court 2, 20 minutes later (Court 1 runs behind)"
c game move final --court "Court 2" --start 10:50 --reason "court 1 runs 20 minutes behind"
echo "## a late entry: the Owls register and play a friendly, added to a round"
c team add owls --name Owls --player ola="Ola Olsen" --player pia="Pia Park"
c game add friendly owls tigers --court "Court 1" --start 11:30 --round Friendlies
echo "## Bo is injured: marked inactive (his moves stay)"
c score g1 bo 2
c player inactive lions bo --reason "injured"
c score g1 bo 2
echo "## g1 is abandoned after the injury, final as it stands"
c end-early g1 --result as-it-stands --reason "injury: the court is needed"
echo "## a wrong move is corrected in the friendly"
c score friendly ola 2
c undo friendly
echo "## the state of the day"
c schedule
c standings
c games
c log _tournament
echo "## kill -9 and restart: nothing acknowledged lost, the changes still in force"
kill -9 $DPID; sleep 1
$B/courtsided --config tournament.yaml >> daemon.log 2>&1 &
DPID=$!; sleep 3
c schedule
c tournament dump --output now.yaml
grep -A3 "inactive_players" now.yaml | sed 's/^/  /'
SEQ=$($B/courtside games $E --client-id organiser >/dev/null; grep -o '"sequence":[0-9]*' <(/usr/bin/python3 - <<PY
import zmq, json
s = zmq.Context().socket(zmq.DEALER); s.connect("tcp://127.0.0.1:5755")
s.send_multipart([b"", json.dumps({"op": "list_games", "client_id": "day", "command_id": "1"}).encode()])
print(s.recv_multipart()[-1].decode())
PY
) | head -1 | cut -d: -f2)
echo "$SEQ" >&3; exec 3>&-; sleep 3
echo "## examples/display.py, a display written from the protocol alone, after all of it:"
python3 -c "import json;d=json.loads(open('display.json').read().strip().splitlines()[-1]);print('  sequence',d['sequence'],'resyncs',d['resyncs'],'tournament changes heard',d['tournament_changes']);print('  final:',[b for b in d['bracket'] if b['game']=='final'])"
