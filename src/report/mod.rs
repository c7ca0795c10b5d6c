//! Turning measurements into text: durations and byte counts with automatic units, the `:time`
//! line, `:bench` summaries, and tables fitted to the terminal (charts are `picture`'s).

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{ContentArrangement, Table};

use crate::base::human_bytes;
use crate::stats::Counters;

/// `812 ns`, `3.42 µs`, `12.3 ms`, `1.25 s`: three significant digits; `0` for nothing. The
/// thresholds are where rounding reaches the next digit: 9.996 µs is `10.0 µs`, 999.7 ns `1.00 µs`.
pub fn seconds(s: f64) -> String {
    if s == 0.0 {
        return "0".to_string();
    }
    let (value, unit) = if s < 999.5e-9 {
        (s * 1e9, "ns")
    } else if s < 999.5e-6 {
        (s * 1e6, "µs")
    } else if s < 0.9995 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    let decimals = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

/// `3 (24 B)`; just `0` when nothing moved.
pub fn transfers(count: u64, bytes: u64) -> String {
    if count == 0 {
        "0".to_string()
    } else {
        format!("{count} ({})", human_bytes(bytes as f64))
    }
}

/// The `:time` line of one statement.
/// `fused`, when given, says what the statement's passes fused (`fused 3 ops of lines 2–4`).
pub fn time_line(wall: f64, returned: f64, c: &Counters, fused: Option<&str>) -> String {
    let device = if c.device_seconds > 0.0 {
        seconds(c.device_seconds)
    } else {
        "—".to_string()
    };
    let kernels = match fused {
        Some(note) if c.kernels > 0 => format!("{} ({note})", c.kernels),
        _ => c.kernels.to_string(),
    };
    let mut line = format!(
        "time {} · returned after {} · device {} · H→D {} · D→H {} · kernels {kernels} · allocs {}",
        seconds(wall),
        seconds(returned),
        device,
        transfers(c.h2d_count, c.h2d_bytes),
        transfers(c.d2h_count, c.d2h_bytes),
        c.allocations
    );
    if c.kernels == 0 && c.cpu_passes > 0 {
        match fused {
            Some(note) => line.push_str(&format!(" · cpu passes {} ({note})", c.cpu_passes)),
            None => line.push_str(&format!(" · cpu passes {}", c.cpu_passes)),
        }
    }
    if let Some(note) = unsynced_note(wall, returned) {
        line.push_str("\n  ");
        line.push_str(&note);
    }
    line
}

/// `line 4`, `lines 2–4`, `lines 2, 5, 7`.
pub fn lines_text(lines: &[usize]) -> String {
    match lines {
        [] => "no line".to_string(),
        [one] => format!("line {one}"),
        _ if lines.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("lines {}–{}", lines[0], lines[lines.len() - 1])
        }
        _ => format!(
            "lines {}",
            lines
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Hints under `:time` and `:bench` when a pattern of the gpu trap shows in what `c` counted
/// over `wall` seconds; `crossover` is the size from which the last `:sweep` saw the gpu win.
pub fn hints(wall: f64, c: &Counters, crossover: Option<i64>) -> Vec<String> {
    let mut out = Vec::new();
    if c.setup_seconds > 0.0 && c.setup_seconds >= 0.3 * wall {
        out.push(format!(
            "hint: {} of this was one-time gpu set-up (CUDA context, loading or compiling kernels, which are then cached on disk): run it again to see its own cost",
            seconds(c.setup_seconds)
        ));
    }
    let small_reads = c.d2h_count >= 10 && c.d2h_bytes <= 64 * c.d2h_count;
    if small_reads && c.d2h_seconds >= 0.5 * wall {
        out.push(format!(
            "hint: {:.0}% of the time went to {} device→host copies of {} B each (gpu elements read one at a time): move the array to the cpu once, with to(x, cpu), before the loop",
            100.0 * c.d2h_seconds / wall,
            c.d2h_count,
            c.d2h_bytes / c.d2h_count
        ));
    }
    if let Some(n) = crossover {
        let per_kernel = c.kernel_elements / c.kernels.max(1);
        if c.kernels > 0 && per_kernel < n as u64 {
            out.push(format!(
                "hint: these kernels cover about {per_kernel} elements each, under the crossover :sweep measured (n = {n}): for arrays this small the cpu is faster"
            ));
        }
    }
    out
}

/// When a statement returned long before its work finished, what a timer that does not wait
/// for the device would have reported.
pub fn unsynced_note(wall: f64, returned: f64) -> Option<String> {
    if wall > 1e-4 && returned > 0.0 && wall / returned >= 2.0 {
        Some(format!(
            "an unsynced timer would have shown {} ({:.0}× too fast)",
            seconds(returned),
            wall / returned
        ))
    } else {
        None
    }
}

/// A table in the house style, as wide as the terminal (100 columns when there is none).
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table
        .load_style(UTF8_FULL_CONDENSED)
        .use_stderr()
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.to_vec());
    if table.width().is_none() {
        table.set_width(100);
    }
    table
}

/// The summary statistics `:bench` prints.
pub struct Summary {
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub sd: f64,
    pub max: f64,
}

pub fn summarize(samples: &[f64]) -> Summary {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len().max(1) as f64;
    let mean = sorted.iter().sum::<f64>() / n;
    let var = sorted.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    let mid = sorted.len() / 2;
    let median = match sorted.len() {
        0 => 0.0,
        len if len % 2 == 1 => sorted[mid],
        _ => (sorted[mid - 1] + sorted[mid]) / 2.0,
    };
    Summary {
        min: *sorted.first().unwrap_or(&0.0),
        median,
        mean,
        sd: var.sqrt(),
        max: *sorted.last().unwrap_or(&0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_pick_their_unit() {
        assert_eq!(seconds(0.000_000_812), "812 ns");
        assert_eq!(seconds(0.000_003_42), "3.42 µs");
        assert_eq!(seconds(0.0123), "12.3 ms");
        assert_eq!(seconds(1.25), "1.25 s");
        assert_eq!(seconds(0.000_009_996), "10.0 µs");
        assert_eq!(seconds(0.000_099_97), "100 µs");
        assert_eq!(seconds(0.000_000_999_7), "1.00 µs");
        assert_eq!(seconds(0.9997), "1.00 s");
    }

    #[test]
    fn the_unsynced_note_appears_only_for_large_gaps() {
        assert_eq!(
            unsynced_note(0.0122, 0.00007).as_deref(),
            Some("an unsynced timer would have shown 70.0 µs (174× too fast)")
        );
        assert_eq!(unsynced_note(0.010, 0.009), None);
    }

    #[test]
    fn each_trap_has_its_hint() {
        let quiet = Counters {
            kernels: 2,
            kernel_elements: 2_000_000,
            ..Counters::default()
        };
        assert!(hints(0.01, &quiet, None).is_empty());
        assert!(hints(0.01, &quiet, Some(1_000_000)).is_empty());

        let set_up = Counters {
            setup_seconds: 0.4,
            ..quiet
        };
        let text = hints(0.5, &set_up, None).join("\n");
        assert!(
            text.contains("400 ms of this was one-time gpu set-up"),
            "{text}"
        );

        let reads = Counters {
            d2h_count: 47_497,
            d2h_bytes: 8 * 47_497,
            d2h_seconds: 0.33,
            ..Counters::default()
        };
        let text = hints(0.4, &reads, None).join("\n");
        assert!(
            text.contains("82% of the time went to 47497 device→host copies of 8 B"),
            "{text}"
        );
        assert!(text.contains("to(x, cpu)"), "{text}");
        let big_reads = Counters {
            d2h_bytes: 8_000_000 * 47_497,
            ..reads
        };
        assert!(hints(0.4, &big_reads, None).is_empty());

        let small = Counters {
            kernels: 4,
            kernel_elements: 4_000,
            ..Counters::default()
        };
        let text = hints(0.001, &small, Some(1_000_000)).join("\n");
        assert!(
            text.contains(
                "about 1000 elements each, under the crossover :sweep measured (n = 1000000)"
            ),
            "{text}"
        );
        assert!(hints(0.001, &small, None).is_empty());
    }

    #[test]
    fn summaries() {
        let s = summarize(&[3.0, 1.0, 2.0, 4.0]);
        assert_eq!((s.min, s.median, s.mean, s.max), (1.0, 2.5, 2.5, 4.0));
    }
}
