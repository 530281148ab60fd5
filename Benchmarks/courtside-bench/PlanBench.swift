import ArgumentParser
import CourtsidePlanning
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The planner on tournaments of pools of 4 and a knockout: how long it takes, and how its day
/// compares with the lower bound no plan can beat.
struct PlanBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract:
            "Planning time, the day's end against its lower bound, the longest wait and the smallest rest, by teams and courts.",
        discussion: """
            Each tournament is pools of 4 (a round robin), the top 2 of each pool into a \
            knockout with a game for third place, planned from 09:00 with no end. By default the \
            sensible combinations run: 4 to 16 teams a court. Times are the best of --rounds \
            runs, in thread CPU time and wall time; ratio = (end - start) / (bound - start).

            Issue 38's goal, 128 teams on 16 courts in under 2 s, the day within 5% of its bound: \
            swift run -c release courtside-bench plan --teams 128 --courts 16
            In CI (swift test), tiny: courtside-bench plan --smoke (8 teams on 2 courts, once)
            """)

    @Option(help: "Team counts, comma-separated.") var teams = "8,16,32,64,128"
    @Option(help: "Court counts, comma-separated.") var courts = "2,4,8,16"
    @Flag(help: "Every combination of --teams and --courts, not only 4 to 16 teams a court.") var all = false
    @Option(help: "Minutes a game lasts.") var game = 10
    @Option(help: "Minutes between games on a court.") var changeover = 4
    @Option(help: "Least minutes a team rests between its games.") var rest = 20
    @Option(help: "Restarts of the search (the planner's standard unless given).") var restarts = Planning.Effort.standard
        .restarts
    @Option(help: "Runs of each plan; times are the best run's.") var rounds = 3
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        // The smallest tournaments of the defaults, planned once.
        if smoke.smoke { (teams, courts, rounds) = ("8", "2", 1) }
        guard !teamCounts.isEmpty, teamCounts.allSatisfy({ $0 >= 2 }) else {
            throw ValidationError("--teams takes counts of 2 or more, comma-separated, not \(teams)")
        }
        guard !courtCounts.isEmpty, courtCounts.allSatisfy({ $0 >= 1 }) else {
            throw ValidationError("--courts takes counts of 1 or more, comma-separated, not \(courts)")
        }
        guard rounds >= 1, restarts >= 0 else { throw ValidationError("--rounds must be 1 or more, --restarts 0 or more") }
    }

    private var teamCounts: [Int] { teams.split(separator: ",").compactMap { Int($0) } }
    private var courtCounts: [Int] { courts.split(separator: ",").compactMap { Int($0) } }

    func run() throws {
        print(
            "pools of 4, top 2 into a knockout with a third-place game; game \(game) + changeover \(changeover) min, rest \(rest) min, from 09:00; \(restarts) restarts"
        )
        print(
            "cpu_ms/wall_ms: best of \(rounds); end and bound: the day's last game ends; ratio = (end - 09:00) / (bound - 09:00)")
        print(
            "capacity: the courts alone; chain: the dependent games alone; waits and rests in minutes; on_court: most games of one team on one court"
        )
        print(
            "teams courts games  cpu_ms  wall_ms    end  bound  ratio  capacity  chain  longest_wait  median_wait  smallest_rest  on_court"
        )
        for teamCount in teamCounts {
            for courtCount in courtCounts where all || (4 * courtCount <= teamCount && teamCount <= 16 * courtCount) {
                try measure(teams: teamCount, courts: courtCount)
            }
        }
    }

    private func measure(teams teamCount: Int, courts courtCount: Int) throws {
        let games = SampleTournament.pools(teams: teamCount)
        let venue = Venue(
            courts: (1...courtCount).map { Court("Court \($0)") }, start: TimeOfDay(minutes: 9 * 60),
            gameMinutes: game, changeoverMinutes: changeover, restMinutes: rest)
        let effort = Planning.Effort(restarts: restarts)
        var bestCPU = Double.infinity
        var bestWall = Double.infinity
        var plan: Plan?
        for _ in 0..<rounds {
            let cpuBefore = cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
            let wallBefore = ContinuousClock.now
            do {
                plan = try Planning.plan(games, venue: venue, effort: effort)
            } catch {
                print(String(format: "%5d %6d %5d  ", teamCount, courtCount, games.count) + "\(error)")
                return
            }
            bestCPU = min(bestCPU, cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - cpuBefore)
            let wall = ContinuousClock.now - wallBefore
            bestWall = min(bestWall, Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
        }
        guard let figures = plan?.figures else { return }
        func column(_ value: Int?, _ width: Int) -> String {
            let text = value.map(String.init) ?? "-"
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        print(
            String(format: "%5d %6d %5d %7.0f %8.0f  ", teamCount, courtCount, games.count, bestCPU * 1000, bestWall * 1000)
                + "\(figures.end)  \(figures.lowerBound)  " + String(format: "%5.3f", figures.ratio)
                + "     \(figures.capacityBound)  \(figures.chainBound)  " + column(figures.longestWait, 12) + "  "
                + column(figures.medianLongestWait, 11) + "  " + column(figures.smallestRest, 13) + "  "
                + column(figures.mostGamesOnOneCourt, 8))
    }
}
