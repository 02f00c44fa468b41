//! SVG figures (plotters' SVG backend: no fonts or system libraries needed).

use plotters::prelude::*;

/// A line per series over a shared x axis.
pub fn lines(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    log_x: bool,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let pts = series.iter().flat_map(|s| s.1.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for &(x, y) in pts {
            let x = if log_x { x.log10() } else { x };
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !x0.is_finite() {
            return Err("no points".into());
        }
        let pad = ((y1 - y0) * 0.08).max(1e-9);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1.max(x0 + 1e-9), (y0 - pad)..(y1 + pad))
            .map_err(|e| e.to_string())?;
        let x_desc = if log_x { format!("log10 {x_desc}") } else { x_desc.to_string() };
        chart.configure_mesh().x_desc(x_desc).y_desc(y_desc).draw().map_err(|e| e.to_string())?;
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let data: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (if log_x { x.log10() } else { x }, y)).collect();
            chart
                .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            chart
                .draw_series(data.into_iter().map(|p| Circle::new(p, 3, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A heat map of `values[row][col]` (rows from bottom to top), in [lo, hi].
pub fn heatmap(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    x_labels: &[String],
    y_labels: &[String],
    values: &[Vec<f64>],
    (lo, hi): (f64, f64),
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (nx, ny) = (x_labels.len(), y_labels.len());
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..nx as f64, 0f64..ny as f64)
            .map_err(|e| e.to_string())?;
        let xl = x_labels.to_vec();
        let yl = y_labels.to_vec();
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_labels(nx * 2 + 1)
            .y_labels(ny * 2 + 1)
            .x_label_formatter(&|x| label_at(&xl, *x))
            .y_label_formatter(&|y| label_at(&yl, *y))
            .draw()
            .map_err(|e| e.to_string())?;
        for (r, row) in values.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                let t = if hi > lo { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 };
                // Blue (low) to white to red (high).
                let (red, green, blue) = if t < 0.5 {
                    let u = t * 2.0;
                    ((255.0 * u) as u8, (255.0 * u) as u8, 255)
                } else {
                    let u = (1.0 - t) * 2.0;
                    (255, (255.0 * u) as u8, (255.0 * u) as u8)
                };
                let (x, y) = (c as f64, r as f64);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x, y), (x + 1.0, y + 1.0)],
                        RGBColor(red, green, blue).filled(),
                    )))
                    .map_err(|e| e.to_string())?;
                chart
                    .draw_series(std::iter::once(Text::new(format!("{v:.0}"), (x + 0.4, y + 0.55), ("sans-serif", 13))))
                    .map_err(|e| e.to_string())?;
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// The label of the cell whose centre is at `x` (empty between cells).
fn label_at(labels: &[String], x: f64) -> String {
    let i = x - 0.5;
    if i >= 0.0 && (i - i.round()).abs() < 1e-6 {
        labels.get(i.round() as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}
