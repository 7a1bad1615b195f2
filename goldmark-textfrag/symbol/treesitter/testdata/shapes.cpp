#include <cmath>
#include <string>
#include <vector>

namespace geo {

// A point in the plane.
struct Point {
  double x, y;
};

/// Anything with an area.
class Shape {
 public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
  std::string name() const { return "shape"; }
};

class Circle : public Shape {
 public:
  explicit Circle(double r);
  double area() const override;
  void scale(double k);
  void scale(double kx, double ky);

 private:
  double r_;
};

Circle::Circle(double r) : r_(r) {}

// pi r squared.
double Circle::area() const { return M_PI * r_ * r_; }

void Circle::scale(double k) { r_ *= k; }

template <typename T>
T total_area(const std::vector<T>& shapes) {
  T sum{};
  for (const auto& s : shapes) sum += s.area();
  return sum;
}

namespace detail {
inline double square(double v) { return v * v; }
}  // namespace detail

}  // namespace geo

template <typename T>
class Grid {
 public:
  T at(int i, int j) const;
  T at(int i) const { return T{}; }
};

template <typename T>
T Grid<T>::at(int i, int j) const {
  return T{};
}

int main() { return 0; }
