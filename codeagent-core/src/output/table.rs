use serde::Serialize;
use serde_json::{Value, json};

use super::column_type::ColumnType;
use super::{IntoToolResult, Presentation, ToolError, payload, records, to_json, written_rows};
use crate::artifact::{Artifact, Kind};
use crate::mcp::NATIVE_EXTRA_KEY;
use crate::raw_json::RawParts;
use crate::result::ToolResult;

/// Rows shown in a table's portable value unless [`Table::with_preview_rows`] says otherwise.
pub const DEFAULT_PREVIEW_ROWS: usize = 20;

/// Longest cell, in characters, written into the portable Markdown table.
const MAX_CELL_CHARS: usize = 200;

/// A column of a [`Table`]: its name and inferred type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    /// The column's name.
    pub name: String,
    /// The type of its values.
    #[serde(rename = "type")]
    pub ty: ColumnType,
}

/// A table of named, typed columns.
///
/// Its artifact payload is `{"df": {"columns": [{"name", "type"}], "rows": [[...]]}}`;
/// its portable value is a Markdown table of the first rows (20 unless
/// [`with_preview_rows`](Table::with_preview_rows) says otherwise) and a line such as
/// `Showing 20 of 1000 rows.` MCP clients get the value as the text and the
/// rows in the artifact in `_meta`; `structuredContent` only with
/// [`with_structured_content`](Table::with_structured_content).
///
/// ```
/// use codeagent_core::{IntoToolResult, Table};
///
/// let table = Table::new()
///     .with_column("region", ["north", "south"]).unwrap()
///     .with_column("total", [10, 7]).unwrap();
/// assert_eq!(
///     table.into_tool_result().value(),
///     "| region | total |\n| --- | --- |\n| north | 10 |\n| south | 7 |\n\n2 rows."
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    columns: Vec<Column>,
    rows: Rows,
    preview_rows: usize,
    structured: bool,
    pub(crate) presentation: Presentation,
}

/// A table's rows: cells, or (read from records) the JSON text they were
/// written to once, which goes to the wire as it is.
#[derive(Clone, Debug)]
enum Rows {
    Cells(Vec<Vec<Value>>),
    Written {
        /// `[[...],[...]]`.
        json: Vec<u8>,
        /// Where each row starts in `json`.
        starts: Vec<usize>,
    },
}

impl Rows {
    fn len(&self) -> usize {
        match self {
            Rows::Cells(rows) => rows.len(),
            Rows::Written { starts, .. } => starts.len(),
        }
    }

    /// Row `index`'s cells.
    fn row(&self, index: usize) -> Vec<Value> {
        match self {
            Rows::Cells(rows) => rows[index].clone(),
            Rows::Written { json, starts } => written_rows::row(json, starts, index),
        }
    }

    /// The rows as cells.
    fn into_cells(self) -> Vec<Vec<Value>> {
        match self {
            Rows::Cells(rows) => rows,
            Rows::Written { json, .. } => serde_json::from_slice(&json).unwrap_or_default(),
        }
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        match (self, other) {
            (Rows::Cells(ours), Rows::Cells(theirs)) => ours == theirs,
            (Rows::Written { json: ours, .. }, Rows::Written { json: theirs, .. }) => ours == theirs,
            _ => self.clone().into_cells() == other.clone().into_cells(),
        }
    }
}

impl Default for Table {
    fn default() -> Self {
        Table::new()
    }
}

impl Table {
    /// A table with no columns, to fill with [`with_column`](Table::with_column).
    pub fn new() -> Self {
        Table {
            columns: Vec::new(),
            rows: Rows::Cells(Vec::new()),
            preview_rows: DEFAULT_PREVIEW_ROWS,
            structured: false,
            presentation: Presentation::default(),
        }
    }

    /// A table from records: each row serialises to an object (a struct or a
    /// map), its fields become columns in the order they first appear, and a
    /// field a row lacks is null.
    ///
    /// Fails, naming the row, when a row is not a record or holds a
    /// non-finite number.
    ///
    /// Rows that are all structs with the same fields are written to JSON
    /// text as they are read, once, and sent as that text: a large table
    /// costs about what `serde_json` takes to write its rows.
    pub fn from_rows<T: Serialize>(rows: &[T]) -> Result<Table, ToolError> {
        if let Some(written) = written_rows::write(rows) {
            let mut table = Table::new();
            table.rows = Rows::Written { json: written.json, starts: written.starts };
            table.columns =
                written.names.into_iter().zip(written.types).map(|(name, ty)| Column { name, ty }).collect();
            return Ok(table);
        }
        let mut names: Vec<String> = Vec::new();
        let mut types: Vec<ColumnType> = Vec::new();
        let mut cells: Vec<Vec<Value>> = Vec::with_capacity(rows.len());
        for (index, row) in rows.iter().enumerate() {
            let fields = records::record(row, index, &names)?;
            if fields.names.is_empty() {
                // The same fields as the rows before, in the same order; their
                // types are taken in while the row is at hand.
                unify_row(&mut types, &fields.values);
                cells.push(fields.values);
                continue;
            }
            let mut placed = vec![Value::Null; names.len()];
            for (name, value) in fields.names.into_iter().zip(fields.values) {
                match names.iter().position(|known| *known == name) {
                    Some(position) => placed[position] = value,
                    None => {
                        names.push(name);
                        placed.push(value);
                    }
                }
            }
            types.resize(names.len(), ColumnType::Null);
            unify_row(&mut types, &placed);
            cells.push(placed);
        }
        // Rows read before a later row added columns lack them: null.
        for row in &mut cells {
            row.resize(names.len(), Value::Null);
        }
        let mut table = Table::new();
        table.rows = Rows::Cells(cells);
        table.columns = names.into_iter().zip(types).map(|(name, ty)| Column { name, ty }).collect();
        Ok(table)
    }

    /// A table from rows known only at run time (a SQL query's result): the
    /// column names, then each row's cells in the columns' order. The columns'
    /// types are inferred from the cells.
    ///
    /// Fails when a name is taken twice, when a row has more or fewer cells
    /// than there are columns, or when a cell holds a non-finite number.
    ///
    /// ```
    /// use codeagent_core::Table;
    /// use serde_json::{Value, json};
    ///
    /// let names = ["id", "customer"];
    /// let rows: Vec<Vec<Value>> = vec![vec![json!(1), json!("Ada")], vec![json!(2), Value::Null]];
    /// let table = Table::from_cells(names, rows).unwrap();
    /// assert_eq!(table.row_count(), 2);
    /// assert!(Table::from_cells(["id"], [vec![1, 2]]).is_err());
    /// ```
    pub fn from_cells<N, R, V>(
        names: impl IntoIterator<Item = N>,
        rows: impl IntoIterator<Item = R>,
    ) -> Result<Table, ToolError>
    where
        N: Into<String>,
        R: IntoIterator<Item = V>,
        V: Serialize,
    {
        let mut table = Table::new();
        for name in names {
            let name = name.into();
            if table.columns.iter().any(|column| column.name == name) {
                return Err(ToolError::new(format!("the table already has a column named `{name}`")));
            }
            table.columns.push(Column { name, ty: ColumnType::Null });
        }
        let width = table.columns.len();
        let mut cells = Vec::new();
        for (index, row) in rows.into_iter().enumerate() {
            let row = row
                .into_iter()
                .enumerate()
                .map(|(column, value)| to_json(&value, &format!("row {index}, column {column}")))
                .collect::<Result<Vec<_>, _>>()?;
            if row.len() != width {
                return Err(ToolError::new(format!(
                    "row {index} has {} cells but the table has {width} columns",
                    row.len()
                )));
            }
            cells.push(row);
        }
        table.rows = Rows::Cells(cells);
        table.infer_types();
        Ok(table)
    }

    /// Adds a column. Fails when the name is taken, when the column's length
    /// differs from the others', or when a value holds a non-finite number.
    pub fn with_column<V: Serialize>(
        mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = V>,
    ) -> Result<Table, ToolError> {
        let name = name.into();
        if self.columns.iter().any(|column| column.name == name) {
            return Err(ToolError::new(format!("the table already has a column named `{name}`")));
        }
        let values = values
            .into_iter()
            .enumerate()
            .map(|(index, value)| to_json(&value, &format!("row {index} of column `{name}`")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rows = std::mem::replace(&mut self.rows, Rows::Cells(Vec::new())).into_cells();
        if self.columns.is_empty() && rows.is_empty() {
            rows = values.into_iter().map(|value| vec![value]).collect();
        } else if values.len() != rows.len() {
            return Err(ToolError::new(format!(
                "column `{name}` has {} values but the table has {} rows",
                values.len(),
                rows.len()
            )));
        } else {
            for (row, value) in rows.iter_mut().zip(values) {
                row.push(value);
            }
        }
        self.rows = Rows::Cells(rows);
        self.columns.push(Column { name, ty: ColumnType::Null });
        self.infer_types();
        Ok(self)
    }

    /// Sets how many rows the portable value shows.
    #[must_use]
    pub fn with_preview_rows(mut self, rows: usize) -> Self {
        self.preview_rows = rows;
        self
    }

    /// Also sends the whole table to MCP clients as `structuredContent`
    /// (`{"columns": [...], "rows": [...]}`), for clients that read the data
    /// from there.
    ///
    /// Without it the rows travel once, in the artifact in `_meta`, and
    /// `structuredContent` is left out: Claude Code and Codex hand their model
    /// `structuredContent` instead of the text when a result has both, so a
    /// table with it reaches those models as the whole JSON rather than as the
    /// bounded Markdown value. Opt in only where every host that calls the
    /// tool should pass the whole data to its model.
    ///
    /// ```
    /// use codeagent_core::{IntoToolResult, Table};
    ///
    /// let table = Table::new().with_column("n", [1, 2]).unwrap();
    /// assert!(table.clone().into_tool_result().into_call_result().structured_content().is_none());
    /// let structured = table.with_structured_content().into_tool_result().into_call_result();
    /// assert_eq!(structured.structured_content().unwrap()["rows"], serde_json::json!([[1], [2]]));
    /// ```
    #[must_use]
    pub fn with_structured_content(mut self) -> Self {
        self.structured = true;
        self
    }

    /// The columns.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The rows, each as long as [`columns`](Table::columns): a copy (read
    /// back from the JSON text they were written to, for a table made by
    /// [`from_rows`](Table::from_rows)).
    pub fn rows(&self) -> Vec<Vec<Value>> {
        self.rows.clone().into_cells()
    }

    /// How many rows the table has.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    fn infer_types(&mut self) {
        // Row by row, the order the cells are in memory.
        let mut types = vec![ColumnType::Null; self.columns.len()];
        if let Rows::Cells(rows) = &self.rows {
            for row in rows {
                unify_row(&mut types, row);
            }
        }
        for (column, ty) in self.columns.iter_mut().zip(types) {
            column.ty = ty;
        }
    }

    /// The bounded Markdown rendering that is the table's portable value.
    pub fn to_markdown(&self) -> String {
        let total = self.rows.len();
        if self.columns.is_empty() {
            return "Empty table (no columns).".to_owned();
        }
        let mut markdown = String::new();
        push_row(&mut markdown, self.columns.iter().map(|column| escape_cell(&column.name)));
        push_row(&mut markdown, self.columns.iter().map(|_| "---".to_owned()));
        for index in 0..total.min(self.preview_rows) {
            push_row(&mut markdown, self.rows.row(index).iter().map(cell_text));
        }
        markdown.push('\n');
        let shown = total.min(self.preview_rows);
        let noun = if total == 1 { "row" } else { "rows" };
        if shown < total {
            markdown.push_str(&format!("Showing {shown} of {total} {noun}."));
        } else {
            markdown.push_str(&format!("{total} {noun}."));
        }
        markdown
    }

    /// The `df` payload: `{"columns": [...], "rows": [...]}`; rows written
    /// as JSON text are kept in `parts`, and `rows` is their marker.
    pub(crate) fn into_df(self, parts: &mut RawParts) -> Value {
        let columns = self.columns.iter().map(|column| json!({ "name": column.name, "type": column.ty })).collect();
        let rows = match self.rows {
            Rows::Cells(rows) => Value::Array(rows.into_iter().map(Value::Array).collect()),
            Rows::Written { json, starts } => {
                drop(starts);
                // Without a marker, the rows are parsed back: the table is sent all the same.
                parts.add(json).unwrap_or_else(|json| serde_json::from_slice(&json).unwrap_or_default())
            }
        };
        Value::Object(payload([("columns", Value::Array(columns)), ("rows", rows)]))
    }
}

/// Takes the types of `row`'s cells into `types`, column by column.
fn unify_row(types: &mut Vec<ColumnType>, row: &[Value]) {
    if types.len() < row.len() {
        types.resize(row.len(), ColumnType::Null);
    }
    for (ty, cell) in types.iter_mut().zip(row) {
        *ty = ty.unify(ColumnType::of(cell));
    }
}

fn push_row(markdown: &mut String, cells: impl Iterator<Item = String>) {
    markdown.push('|');
    for cell in cells {
        markdown.push(' ');
        markdown.push_str(&cell);
        markdown.push_str(" |");
    }
    markdown.push('\n');
}

fn cell_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => escape_cell(text),
        other => escape_cell(&other.to_string()),
    }
}

fn escape_cell(text: &str) -> String {
    let mut cell = String::with_capacity(text.len().min(MAX_CELL_CHARS + 3));
    for (count, ch) in text.chars().enumerate() {
        if count == MAX_CELL_CHARS {
            cell.push('…');
            break;
        }
        match ch {
            '|' => cell.push_str("\\|"),
            '\n' | '\r' => cell.push(' '),
            other => cell.push(other),
        }
    }
    cell
}

impl IntoToolResult for Table {
    fn into_tool_result(self) -> ToolResult {
        let value = self.to_markdown();
        let presentation = self.presentation.clone();
        let structured = self.structured;
        let mut parts = RawParts::default();
        let df = self.into_df(&mut parts);
        let native = structured.then(|| Value::Object(payload([("structuredContent", df.clone())])));
        let artifact = Artifact::new(Kind::Table, payload([("df", df)]));
        let result = ToolResult::new(value).with_artifact(presentation.apply(artifact));
        let result = match native {
            Some(native) => result.with_extra(NATIVE_EXTRA_KEY, native),
            None => result,
        };
        result.with_raw_parts(parts)
    }

    fn is_rich() -> bool {
        true
    }
}
