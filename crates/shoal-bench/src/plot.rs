//! The results plot: memory per Function and throughput, Shoal against one
//! Node.js process per Function and raw hyper.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

use crate::report::Report;

const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// Writes `density.png`.
pub fn render(report: &Report, path: &Path) -> anyhow::Result<()> {
    let font =
        std::fs::read(FONT).with_context(|| format!("{FONT} (Debian's fonts-dejavu-core; run.sh installs it)"))?;
    plotters::style::register_font("sans-serif", FontStyle::Normal, Box::leak(font.into_boxed_slice()))
        .map_err(|_| anyhow::anyhow!("{FONT} is not a usable font"))?;

    let mut memory: Vec<(String, f64)> = report
        .nodes
        .iter()
        .map(|r| (format!("Shoal, {} Fns", r.count), r.rss_per_function() / 1024.0))
        .collect();
    let mut throughput: Vec<(String, f64)> = Vec::new();
    if let Some(best) = report.nodes.iter().max_by_key(|r| r.count) {
        throughput.push(("Shoal, 1 Fn".into(), best.hello_c64.rps));
        throughput.push((format!("Shoal, random of {}", best.count), best.random_c64.rps));
    }
    if let Some(b) = &report.node_baseline {
        memory.push(("Node.js process".into(), b.rss_per_process / 1024.0));
        throughput.push(("Node.js process".into(), b.c64.rps));
    }
    if let Some(h) = &report.hyper {
        throughput.push(("raw hyper".into(), h.c64.rps));
    }

    let root = BitMapBackend::new(path, (1400, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(700);
    bars(&left, "RSS per Function (KiB, log scale)", &memory, true)?;
    bars(&right, "Requests/s at 64 connections, hello world", &throughput, false)?;
    root.present()?;
    Ok(())
}

fn bars(
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    title: &str,
    data: &[(String, f64)],
    log: bool,
) -> anyhow::Result<()> {
    let n = data.len().max(1);
    let max = data.iter().map(|d| d.1).fold(1.0, f64::max) * 1.5;
    let labels: Vec<String> = data.iter().map(|d| d.0.clone()).collect();
    let label = move |x: &f64| -> String {
        let i = x.floor() as usize;
        if (x - x.floor() - 0.5).abs() < 0.01 {
            labels.get(i).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let colors = [
        RGBColor(31, 119, 180),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(127, 127, 127),
    ];
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(70);
    if log {
        let mut chart = builder.build_cartesian_2d(0f64..n as f64, (1f64..max).log_scale())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        for (i, (name, value)) in data.iter().enumerate() {
            let color = if name.starts_with("Node") { colors[2] } else { colors[0] };
            chart.draw_series([Rectangle::new(
                [(i as f64 + 0.15, 1.0), (i as f64 + 0.85, *value)],
                color.filled(),
            )])?;
            chart.draw_series([Text::new(
                format!("{value:.0}"),
                (i as f64 + 0.3, value * 1.15),
                ("sans-serif", 16),
            )])?;
        }
    } else {
        let mut chart = builder.build_cartesian_2d(0f64..n as f64, 0f64..max)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()?;
        for (i, (name, value)) in data.iter().enumerate() {
            let color = if name.starts_with("Node") {
                colors[2]
            } else if name.starts_with("raw") {
                colors[3]
            } else {
                colors[0]
            };
            chart.draw_series([Rectangle::new(
                [(i as f64 + 0.15, 0.0), (i as f64 + 0.85, *value)],
                color.filled(),
            )])?;
            chart.draw_series([Text::new(
                format!("{value:.0}"),
                (i as f64 + 0.3, value + max * 0.02),
                ("sans-serif", 16),
            )])?;
        }
    }
    Ok(())
}
